// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: component
kernel void k(global float *out)
{
    float3 p = (float3)(1.0f);
    out[0] = p.w;
}
