// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float4 *out, global const float4 *in)
{
    float4 x = in[0];
    out[0] = sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x) + atan2(x, x)
           + sinh(x) + cosh(x) + tanh(x) + exp(x) + exp2(x) + exp10(x) + expm1(x)
           + log(x) + log2(x) + log10(x) + log1p(x) + sqrt(x) + rsqrt(x) + cbrt(x)
           + pow(x, x) + pown(x, (int4)(2)) + powr(x, x) + rootn(x, (int4)(3))
           + fabs(x) + floor(x) + ceil(x) + round(x) + trunc(x) + rint(x)
           + fmod(x, x) + remainder(x, x) + fmin(x, x) + fmax(x, 1.0f) + fdim(x, x)
           + fma(x, x, x) + mad(x, x, x) + hypot(x, x) + copysign(x, x) + logb(x)
           + sinpi(x) + cospi(x) + tanpi(x) + erf(x) + erfc(x) + tgamma(x) + lgamma(x);
}
