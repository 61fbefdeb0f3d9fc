// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: address space
// constant.txt: casting between different named address spaces is illegal
kernel void k(global int *g, local int *l)
{
    local int *p = (local int *)g;
    p[0] = 1;
}
