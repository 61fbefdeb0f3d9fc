// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: incompatible
kernel void k(global uint4 *out)
{
    float4 a = (float4)(1.0f);
    uint4 m = a > 0.0f;
    out[0] = m;
}
