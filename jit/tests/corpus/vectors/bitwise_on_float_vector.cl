// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: invalid operands
kernel void k(global float4 *out)
{
    float4 a = (float4)(1.0f);
    out[0] = a & a;
}
