// RUN: -cl-std=CL2.0
// EXPECT: ok
// OpenCL C 2.0 spells the generic space __generic
kernel void k(global int *g)
{
    __generic int *p = g;
    *p = 1;
}
