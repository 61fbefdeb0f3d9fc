// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: dot
kernel void k(global float *out)
{
    float4 a = (float4)(1.0f);
    float2 b = (float2)(1.0f);
    out[0] = dot(a, b);
}
