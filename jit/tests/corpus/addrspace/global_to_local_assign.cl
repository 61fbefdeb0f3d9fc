// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 6: address space
kernel void k(global int *g, local int *l)
{
    l = g;
}
