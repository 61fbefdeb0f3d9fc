// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: redefinition
kernel void k(global int *out)
{
    int x = 1;
    int x = 2;
    out[0] = x;
}
