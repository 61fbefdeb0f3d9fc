// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float4 *in, global int4 *out)
{
    out[get_global_id(0)] = convert_int4_sat_rte(in[get_global_id(0)]);
}
