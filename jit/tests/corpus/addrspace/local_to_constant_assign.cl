// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: address space
kernel void k(constant int *c, local int *l)
{
    c = l;
}
