// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: incompatible
// no implicit conversion between vector types
kernel void k(global float4 *out)
{
    int4 i = (int4)(1);
    float4 f = i;
    out[0] = f;
}
