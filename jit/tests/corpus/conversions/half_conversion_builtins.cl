// RUN: -cl-std=CL1.2
// EXPECT: ok
// CLANG: skip clang-14's opencl-c.h declares vload_half/vstore_half only with cl_khr_fp16; the spec makes them core
// vload_half4 and vstore_half4_rte: half as storage, without cl_khr_fp16
kernel void k(global half *h, global float4 *out)
{
    float4 f = vload_half4(0, h);
    vstore_half4_rte(f * 2.0f, 1, h);
    out[0] = f;
}
