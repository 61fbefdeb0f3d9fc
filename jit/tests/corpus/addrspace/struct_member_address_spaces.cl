// RUN: -cl-std=CL1.2
// EXPECT: ok
// struct members that are pointers to named spaces
typedef struct { global float *data; local float *scratch; int n; } view_t;
float first(view_t v) { return v.data[0] + v.scratch[0]; }
kernel void k(global float *g, local float *l)
{
    view_t v = { g, l, 4 };
    g[1] = first(v);
}
