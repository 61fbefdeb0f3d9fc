// RUN: -cl-std=CL1.2
// EXPECT: ok
// float, hex-float, octal, hex, char and suffixed integer literals; without cl_khr_fp64 an unsuffixed 1.0 is a float constant
kernel void k(global float *f, global int *i, global ulong *u)
{
    f[0] = 1.0f + 1.f + .5f + 1e3f + 1.5e-3f + 0x1.8p1f + 2.0F + (float)1.0;
    i[0] = 0x7fffffff + 017 + 0 + 'z';
    u[0] = 18446744073709551615ul + 1UL + 0xffffffffffffffffUL + 10lu;
}
