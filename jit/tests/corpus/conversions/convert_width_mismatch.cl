// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: convert_int2
kernel void k(global const float4 *in, global int2 *out)
{
    out[0] = convert_int2(in[0]);
}
