// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 7: address space
kernel void k(local int *l)
{
    int x = 0;
    local int *p = (local int *)&x;
    *p = 1;
}
