// RUN: -cl-std=CL1.2
// REQUIRES: !cl_khr_fp64
// EXPECT: error
// ERROR: 7: double
// enabling an extension the device lacks does not make double available (CL1.2: an error)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global double *d)
{
}
