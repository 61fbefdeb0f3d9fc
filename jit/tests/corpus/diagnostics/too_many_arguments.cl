// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: too many arguments
int f(int a) { return a; }
kernel void k(global int *out)
{
    out[0] = f(1, 2);
}
