// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *g, local float *l, constant float *c, read_only image2d_t img, write_only image2d_t o)
{
    private float p = c[0];
    l[0] = p;
    g[0] = l[0];
}
