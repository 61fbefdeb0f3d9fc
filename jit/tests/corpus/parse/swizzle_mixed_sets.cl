// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 7: component
kernel void k(global float4 *out)
{
    float4 v = (float4)(0.0f);
    out[0] = v.xg;
}
