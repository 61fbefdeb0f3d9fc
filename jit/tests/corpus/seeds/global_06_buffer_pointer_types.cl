// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: program-scope pointers to vectors and user structs
global float4 *color; // An array of float4 elements
typedef struct {
    float a[3];
    int b[2];
} foo_t;
global foo_t *my_info; // An array of foo_t elements.
kernel void k(global float4 *c, global foo_t *info)
{
    color = c;
    my_info = info;
    my_info[0].a[0] = color[0].x;
}
