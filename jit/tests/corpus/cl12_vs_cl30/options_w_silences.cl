// RUN: -cl-std=CL1.2 -w
// EXPECT: ok
// -w silences warnings
kernel void k(global int *out, global float *f)
{
    global int *p = f;
    out[0] = *p;
}
