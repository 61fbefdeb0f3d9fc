// RUN: -cl-std=CL1.2
// EXPECT: ok
// a scalar operand is widened to the vector type
kernel void k(global float4 *out, global int4 *iout)
{
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    out[0] = v * 2.0f + 1.0f;
    out[1] = 3.0f - v;
    int4 i = (int4)(1, 2, 3, 4);
    iout[0] = i << 1 | 1;
    iout[1] = 10 / i;
}
