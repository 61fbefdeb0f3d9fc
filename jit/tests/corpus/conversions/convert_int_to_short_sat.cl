// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const int *in, global short *out)
{
    out[get_global_id(0)] = convert_short_sat(in[get_global_id(0)]);
}
