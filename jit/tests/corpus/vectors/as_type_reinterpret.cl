// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global uint4 *out, global float4 *in)
{
    out[0] = as_uint4(in[0]);
    float f = as_float(0x3f800000u);
    char4 c = as_char4(1.0f);
    out[1] = (uint4)(as_uint(f), c.x, 0, 0);
}
