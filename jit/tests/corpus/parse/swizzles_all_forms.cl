// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float4 *out, global float16 *wide)
{
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float16 w = wide[0];
    float4 a = v.wzyx;
    float2 b = v.xy + v.rg + v.s01 + v.S23;
    float4 c = w.s0123 + w.sCDEF + w.sabcd;
    float8 d = w.lo + w.hi + w.even + w.odd;
    float2 e = v.lo + v.hi + v.even + v.odd;
    float f = v.w + v.a + v.s3;
    out[0] = a + (float4)(b, e) + c + d.lo + f;
}
