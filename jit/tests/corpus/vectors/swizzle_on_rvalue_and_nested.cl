// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *out)
{
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    out[0] = ((float4)(5.0f)).x + v.zyx.y + v.hi.lo + (v + v).w + v.s3210.s0;
}
