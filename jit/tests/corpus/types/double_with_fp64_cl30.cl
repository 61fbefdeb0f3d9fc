// RUN: -cl-std=CL3.0
// REQUIRES: __opencl_c_fp64, cl_khr_fp64
// EXPECT: ok
// double under OpenCL C 3.0 with the __opencl_c_fp64 feature
#ifndef __opencl_c_fp64
#error "__opencl_c_fp64 is advertised, so it is predefined"
#endif
kernel void k(global double4 *out, double s)
{
    out[get_global_id(0)] = (double4)(s) * 2.0 + dot((double2)(s), (double2)(1.0));
}
