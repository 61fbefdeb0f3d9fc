// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: address space
// global-1.x.txt: casting a pointer to address space A to B is illegal
kernel void k(__global int *g, __local int *l)
{
    __global int *p = (__global int *)l;
    p[0] = 1;
}
