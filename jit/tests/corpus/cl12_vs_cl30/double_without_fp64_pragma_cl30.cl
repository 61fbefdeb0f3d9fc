// RUN: -cl-std=CL3.0
// REQUIRES: !__opencl_c_fp64
// EXPECT: error
// ERROR: 7: double
// enabling an extension the device lacks does not make double available (CL3.0: an error)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global double *d)
{
}
