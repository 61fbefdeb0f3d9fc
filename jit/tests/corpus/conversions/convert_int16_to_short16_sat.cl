// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const int16 *in, global short16 *out)
{
    out[get_global_id(0)] = convert_short16_sat(in[get_global_id(0)]);
}
