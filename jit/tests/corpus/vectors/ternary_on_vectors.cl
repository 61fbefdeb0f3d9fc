// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float4 *out)
{
    float4 a = (float4)(1.0f, -2.0f, 3.0f, -4.0f);
    int4 mask = a > 0.0f;
    out[0] = mask ? a : -a;
    out[1] = select(a, -a, mask);
}
