// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float16 *in, global int16 *out)
{
    out[get_global_id(0)] = convert_int16_sat_rte(in[get_global_id(0)]);
}
