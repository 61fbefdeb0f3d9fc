// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float4 *out, global float *s)
{
    float4 a = (float4)(1.0f, 2.0f, 3.0f, 0.0f), b = (float4)(0.5f);
    float3 c = cross(a.xyz, b.xyz);
    out[0] = cross(a, b) + normalize(a) + fast_normalize(b) + (float4)(c, 0.0f);
    s[0] = dot(a, b) + length(a) + distance(a, b) + fast_length(a) + fast_distance(a, b) + dot(2.0f, 3.0f);
}
