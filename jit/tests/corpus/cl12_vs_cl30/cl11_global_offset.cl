// RUN: -cl-std=CL1.1
// EXPECT: ok
kernel void k(global int *out)
{
    out[0] = get_global_offset(0);
}
