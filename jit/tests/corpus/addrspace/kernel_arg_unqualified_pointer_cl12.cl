// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: address space
// in 1.2 an unqualified pointer argument points to private: not allowed for kernels
kernel void k(int *p)
{
}
