// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int4 *out)
{
    int4 a = (int4)(0, 1, 2, 0), b = (int4)(1, 1, 0, 0);
    out[0] = (a && b) + (a || b) + !a;
}
