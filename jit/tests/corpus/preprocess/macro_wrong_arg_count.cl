// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: argument
#define ADD(a, b) ((a) + (b))
kernel void k(global int *out)
{
    out[0] = ADD(1);
}
