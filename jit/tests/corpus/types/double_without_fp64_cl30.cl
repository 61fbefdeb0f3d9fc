// RUN: -cl-std=CL3.0
// REQUIRES: !__opencl_c_fp64
// EXPECT: error
// ERROR: 5: double
kernel void k(global double *out)
{
}
