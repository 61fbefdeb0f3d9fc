// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out, global float *f)
{
    out[0] = CHAR_BIT + CHAR_MAX + SCHAR_MIN + UCHAR_MAX + SHRT_MAX + INT_MAX + (INT_MIN < 0);
    out[1] = (UINT_MAX == 0xffffffffu) + (LONG_MAX > 0) + (ULONG_MAX > 0);
    f[0] = FLT_EPSILON + FLT_MAX + FLT_MIN + M_PI_F + M_E_F + MAXFLOAT + HUGE_VALF + FLT_DIG + FLT_MANT_DIG;
}
