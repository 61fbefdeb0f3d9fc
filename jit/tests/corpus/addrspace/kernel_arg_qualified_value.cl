// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: address space
// a kernel argument itself is private; global on a non-pointer is an error
kernel void k(global int x)
{
}
