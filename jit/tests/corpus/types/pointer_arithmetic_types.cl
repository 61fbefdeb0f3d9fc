// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *a, global int *out)
{
    global int *p = a + 4;
    ptrdiff_t d = p - a;
    global int *q = &p[-2];
    out[0] = (int)d + *q + (p > a) + (q == a + 2);
}
