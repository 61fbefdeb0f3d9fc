// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: pointer
kernel void k(global int *out, float f)
{
    global int *p = (global int *)f;
}
