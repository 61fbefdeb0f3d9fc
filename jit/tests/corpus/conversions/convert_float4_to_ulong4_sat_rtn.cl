// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float4 *in, global ulong4 *out)
{
    out[get_global_id(0)] = convert_ulong4_sat_rtn(in[get_global_id(0)]);
}
