// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out)
{
    out[0] = __LINE__;
#line 100
    out[1] = __LINE__;
    constant char *f = __FILE__;
    out[2] = f[0];
}
