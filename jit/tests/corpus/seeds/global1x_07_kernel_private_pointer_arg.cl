// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: address space
// global-1.x.txt: kernel pointer arguments point to global, local or constant only
kernel void k(__private int *p)
{
}
