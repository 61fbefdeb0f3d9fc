// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: address space
// comparing pointers into disjoint named spaces
kernel void k(global int *g, local int *l, global int *out)
{
    out[0] = (g == l);
}
