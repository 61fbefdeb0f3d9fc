// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float4 *out)
{
    float4 v = (float4)(0.0f);
    v.xy = (float2)(1.0f, 2.0f);
    v.wz = v.xy;
    v.s0 = 5.0f;
    v.odd = (float2)(7.0f);
    v.hi.x = 9.0f;
    out[0] = v;
}
