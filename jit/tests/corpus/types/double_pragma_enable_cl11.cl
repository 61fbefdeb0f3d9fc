// RUN: -cl-std=CL1.1
// REQUIRES: cl_khr_fp64
// EXPECT: ok
// OpenCL C 1.1 uses double after enabling cl_khr_fp64, which the device advertises
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global double *out, global const double *in)
{
    double d = in[0] * 0.5;
    out[0] = sqrt(d) + 1.0;
}
