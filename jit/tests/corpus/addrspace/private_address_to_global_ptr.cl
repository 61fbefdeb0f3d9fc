// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: address space
kernel void k(global int *g)
{
    int x = 1;
    global int *p = &x;
    *p = 2;
}
