// RUN: -cl-std=CL1.2
// EXPECT: ok
// WARNING: 6: integer
kernel void k(global int *out)
{
    global int *p = 1234;
    out[0] = *p;
}
