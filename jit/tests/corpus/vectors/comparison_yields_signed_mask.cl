// RUN: -cl-std=CL1.2
// EXPECT: ok
// vector relational operators give -1/0 masks of the signed integer type of the same size
kernel void k(global int4 *out, global long2 *lout)
{
    float4 a = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    int4 m = a > 2.0f;
    out[0] = m & (int4)(1);
    long2 l = (long2)(1, 2) == (long2)(1, 3);
    lout[0] = l;
}
