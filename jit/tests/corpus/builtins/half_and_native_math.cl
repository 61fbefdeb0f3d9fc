// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *out, float x)
{
    out[0] = half_sin(x) + half_cos(x) + half_exp(x) + half_log(x) + half_sqrt(x) + half_rsqrt(x)
           + half_recip(x) + half_divide(x, 2.0f) + half_powr(x, 2.0f)
           + native_sin(x) + native_cos(x) + native_exp(x) + native_log(x) + native_sqrt(x)
           + native_recip(x) + native_divide(x, 3.0f) + native_powr(x, 2.0f) + native_tan(x);
}
