// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const uint4 *in, global float4 *out)
{
    out[get_global_id(0)] = convert_float4_rtp(in[get_global_id(0)]);
}
