// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 5: address space
// kernel pointer arguments must point to global, local or constant
kernel void k(int *p)
{
}
