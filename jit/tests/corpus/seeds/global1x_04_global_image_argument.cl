// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: address space
// global-1.x.txt: image arguments are not qualified with __global
__kernel void k(__global image2d_t texture)
{
}
