// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float4 *out, global int8 *iout)
{
    float4 a = (float4)(1.0f, 2.0f, 3.0f, 4.0f), b = (float4)(5.0f);
    out[0] = shuffle(a, (uint4)(3, 2, 1, 0));
    out[1] = shuffle2(a, b, (uint4)(0, 4, 1, 5));
    iout[0] = shuffle((int4)(1, 2, 3, 4), (uint8)(0, 0, 1, 1, 2, 2, 3, 3));
}
