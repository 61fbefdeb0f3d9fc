// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const char4 *in, global float4 *out)
{
    out[get_global_id(0)] = convert_float4(in[get_global_id(0)]);
}
