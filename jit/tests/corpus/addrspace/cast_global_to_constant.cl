// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: address space
kernel void k(global int *g, global int *out)
{
    constant int *c = (constant int *)g;
    out[0] = *c;
}
