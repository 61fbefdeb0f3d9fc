// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: too few arguments
int f(int a, int b) { return a + b; }
kernel void k(global int *out)
{
    out[0] = f(1);
}
