// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: atomic_inc
// atomic_inc exists only for global and local pointers
kernel void k(void)
{
    int x = 0;
    atomic_inc(&x);
}
