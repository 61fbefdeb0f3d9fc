// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int4 *out, global int *s, global float4 *f)
{
    float4 x = (float4)(1.0f, NAN, INFINITY, -0.0f);
    out[0] = isequal(x, x) + isnotequal(x, x) + isgreater(x, x) + isless(x, x) + isfinite(x)
           + isinf(x) + isnan(x) + isnormal(x) + isordered(x, x) + isunordered(x, x) + signbit(x);
    s[0] = any(out[0]) + all(out[0] < 0) + isnan(1.0f);
    f[0] = bitselect(x, x, x) + select(x, x, (int4)(-1));
}
