// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: size
kernel void k(global uint4 *out)
{
    float2 f = (float2)(1.0f);
    out[0] = as_uint4(f);
}
