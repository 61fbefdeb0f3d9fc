// RUN: -cl-std=CL1.2
// EXPECT: ok
#define VEC(t, n) t##n
#define CONVERT(t, n) convert_##t##n
kernel void k(global float4 *out, global const int4 *in)
{
    VEC(float, 4) v = CONVERT(float, 4)(in[0]);
    out[0] = v;
}
