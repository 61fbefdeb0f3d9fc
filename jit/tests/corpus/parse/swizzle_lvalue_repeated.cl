// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: duplicate
kernel void k(global float4 *out)
{
    float4 v = (float4)(0.0f);
    v.xx = (float2)(1.0f, 2.0f);
    out[0] = v;
}
