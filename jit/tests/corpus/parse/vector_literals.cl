// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float8 *out, float s)
{
    float2 a = (float2)(1.0f, 2.0f);
    float4 b = (float4)(a, 3.0f, 4.0f);
    float4 c = (float4)(s);
    float8 d = (float8)(b, c);
    float8 e = (float8)(a, a.yx, 1.0f, (float2)(s, s), 2.0f);
    out[0] = d + e;
}
