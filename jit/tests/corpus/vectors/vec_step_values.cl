// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef char c1[vec_step(float3) == 4 ? 1 : -1];
typedef char c2[vec_step(int16) == 16 ? 1 : -1];
typedef char c3[vec_step(float) == 1 ? 1 : -1];
kernel void k(global int *out)
{
    float2 v;
    out[0] = vec_step(v) + vec_step(uchar8);
}
