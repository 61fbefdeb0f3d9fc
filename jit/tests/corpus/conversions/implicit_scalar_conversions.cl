// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *f, global int *i, global uchar *c)
{
    int a = 3.7f;         /* float -> int, truncation */
    float b = 7;          /* int -> float */
    uchar d = 300;        /* int -> uchar, modulo */
    long e = a;           /* widening */
    short g = e;          /* narrowing */
    bool h = 2.5f;        /* any nonzero -> true */
    f[0] = b + h;
    i[0] = a + g;
    c[0] = d;
}
