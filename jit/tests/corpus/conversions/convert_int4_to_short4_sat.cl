// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const int4 *in, global short4 *out)
{
    out[get_global_id(0)] = convert_short4_sat(in[get_global_id(0)]);
}
