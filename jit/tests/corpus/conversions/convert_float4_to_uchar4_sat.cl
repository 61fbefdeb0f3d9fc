// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float4 *in, global uchar4 *out)
{
    out[get_global_id(0)] = convert_uchar4_sat(in[get_global_id(0)]);
}
