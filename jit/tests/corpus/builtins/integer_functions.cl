// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int4 *out, global uint4 *uout, global const int4 *in)
{
    int4 a = in[0], b = in[1];
    uint4 ua = as_uint4(a);
    uout[0] = abs(a) + abs_diff(a, b) + clz(ua) + popcount(ua);
    out[0] = add_sat(a, b) + sub_sat(a, b) + hadd(a, b) + rhadd(a, b) + clamp(a, b, b)
           + mad_hi(a, b, b) + mad_sat(a, b, b) + max(a, b) + min(a, 3) + mul_hi(a, b)
           + rotate(a, b) + upsample((short4)(1), (ushort4)(2)) + mad24(a, b, a) + mul24(a, b);
}
