// RUN: -cl-std=CL1.2
// REQUIRES: cl_khr_fp64
// EXPECT: ok
// double arithmetic, vectors and built-ins once the device advertises cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global double *out, global const double2 *in, float f)
{
    double2 v = in[get_global_id(0)];
    double d = sqrt(v.x * v.x + v.y * v.y) + (double)f + 1.0;
    out[get_global_id(0)] = fma(d, 0.5, convert_double(get_global_id(0)));
}
