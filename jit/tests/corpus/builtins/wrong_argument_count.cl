// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: sin
kernel void k(global float *out)
{
    out[0] = sin(1.0f, 2.0f);
}
