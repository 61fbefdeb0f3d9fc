// RUN: -cl-std=CL1.2
// EXPECT: ok
// subscripting a vector: a common extension clang accepts
kernel void k(global float *out)
{
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    out[0] = v[2];
}
