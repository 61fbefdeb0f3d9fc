// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const uint *in, global float *out)
{
    out[get_global_id(0)] = convert_float_rtp(in[get_global_id(0)]);
}
