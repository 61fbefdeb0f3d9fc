// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float *in, global uchar *out)
{
    out[get_global_id(0)] = convert_uchar_sat(in[get_global_id(0)]);
}
