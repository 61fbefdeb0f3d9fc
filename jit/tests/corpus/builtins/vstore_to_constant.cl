// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: vstore4
kernel void k(constant float *c)
{
    vstore4((float4)(1.0f), 0, c);
}
