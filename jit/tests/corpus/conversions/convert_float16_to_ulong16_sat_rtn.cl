// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float16 *in, global ulong16 *out)
{
    out[get_global_id(0)] = convert_ulong16_sat_rtn(in[get_global_id(0)]);
}
