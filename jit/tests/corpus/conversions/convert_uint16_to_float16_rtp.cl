// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const uint16 *in, global float16 *out)
{
    out[get_global_id(0)] = convert_float16_rtp(in[get_global_id(0)]);
}
