// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: const with __global specifies a read-only buffer
kernel void k(const global float *in, global float *out)
{
    out[get_global_id(0)] = in[get_global_id(0)] * 2.0f;
}
