// RUN: -cl-std=CL3.0
// EXPECT: ok
kernel void k(global float *g, local float *l, constant float *c, float s)
{
    l[get_local_id(0)] = g[get_global_id(0)] + c[0] + s;
}
