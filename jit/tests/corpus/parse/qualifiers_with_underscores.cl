// RUN: -cl-std=CL1.2
// EXPECT: ok
__kernel void k(__global float *g, __local float *l, __constant float *c, __read_only image2d_t img, __write_only image2d_t o)
{
    __private float p = c[0];
    l[0] = p;
    g[0] = l[0];
}
