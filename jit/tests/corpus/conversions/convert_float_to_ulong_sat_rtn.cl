// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float *in, global ulong *out)
{
    out[get_global_id(0)] = convert_ulong_sat_rtn(in[get_global_id(0)]);
}
