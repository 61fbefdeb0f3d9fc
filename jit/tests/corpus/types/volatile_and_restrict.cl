// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float * restrict out, global const float * restrict in, volatile global int *flag)
{
    out[get_global_id(0)] = in[get_global_id(0)];
    *flag = 1;
}
