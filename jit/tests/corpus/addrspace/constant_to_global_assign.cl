// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: address space
kernel void k(constant int *c, global int *g)
{
    g = c;
}
