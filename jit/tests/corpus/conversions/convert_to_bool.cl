// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: convert_bool
kernel void k(global const float *in, global int *out)
{
    out[0] = convert_bool(in[0]);
}
