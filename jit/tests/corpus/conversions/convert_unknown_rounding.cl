// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: convert_int_rtx
kernel void k(global const float *in, global int *out)
{
    out[0] = convert_int_rtx(in[0]);
}
