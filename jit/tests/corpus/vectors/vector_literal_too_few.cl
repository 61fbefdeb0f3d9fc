// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: elements
kernel void k(global float4 *out)
{
    out[0] = (float4)(1.0f, 2.0f, 3.0f);
}
