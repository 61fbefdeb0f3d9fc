// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float16 *in, global uchar16 *out)
{
    out[get_global_id(0)] = convert_uchar16_sat(in[get_global_id(0)]);
}
