// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 4: address space
kernel void k(private float *p)
{
}
