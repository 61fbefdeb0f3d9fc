// RUN: -cl-std=CL1.2
// EXPECT: ok
// half values, literals and arithmetic once cl_khr_fp16 is enabled
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half *h, global float *out)
{
    half x = h[0] * 2.0h + HALF_EPSILON;
    half4 v = (half4)(x, 1.0h, -x, M_PI_H);
    h[1] = v.w - sqrt(x);
    out[0] = x;
}
