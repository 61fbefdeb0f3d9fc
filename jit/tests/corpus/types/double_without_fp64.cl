// RUN: -cl-std=CL1.2
// REQUIRES: !cl_khr_fp64
// EXPECT: error
// ERROR: 8: double
// double needs cl_khr_fp64, which the device does not advertise
kernel void k(global float *out)
{
    double d = 1.0;
    out[0] = (float)d;
}
