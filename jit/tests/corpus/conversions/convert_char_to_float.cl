// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const char *in, global float *out)
{
    out[get_global_id(0)] = convert_float(in[get_global_id(0)]);
}
