// RUN: -cl-std=CL1.2
// EXPECT: ok
// global-1.x.txt: buffer arguments of vectors and structs, an image argument
typedef struct { float a[3]; int b[2]; } foo_t;
__kernel void k(__global float4 *color, // An array of float4 elements
                __global foo_t *my_info, // An array of foo_t elements.
                image2d_t texture) // A 2D texture image
{
    my_info[0].a[0] = color[0].x;
}
