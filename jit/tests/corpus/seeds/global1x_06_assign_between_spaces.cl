// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: address space
// global-1.x.txt: a pointer to A can only be assigned to a pointer to A
kernel void k(__global int *g, __local int *l)
{
    __global int *p = l;
    p[0] = 1;
}
