// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const long *in, global int *out)
{
    out[get_global_id(0)] = convert_int(in[get_global_id(0)]);
}
