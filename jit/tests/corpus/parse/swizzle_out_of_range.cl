// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: component
kernel void k(global float2 *out)
{
    float2 v = (float2)(0.0f);
    out[0] = v.xz;
}
