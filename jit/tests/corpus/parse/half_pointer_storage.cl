// RUN: -cl-std=CL1.2
// EXPECT: ok
// CLANG: skip clang-14's opencl-c.h declares vload_half/vstore_half only with cl_khr_fp16; the spec makes them core
// half is a storage format without cl_khr_fp16: pointers and vload_half/vstore_half
kernel void k(global half *h, global float *out)
{
    out[get_global_id(0)] = vload_half(get_global_id(0), h);
    vstore_half(out[0], 0, h);
}
