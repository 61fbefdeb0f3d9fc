// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct { float x, y, z; int tag; } vec3_t;
typedef struct { vec3_t pos; float w[3]; } particle_t;
kernel void k(global float *out)
{
    particle_t p = { .pos = { .y = 2.0f, .x = 1.0f }, .w = { [1] = 5.0f } };
    vec3_t arr[3] = { [2].z = 3.0f, [0] = { 1.0f, 2.0f, 3.0f, 4 } };
    out[0] = p.pos.x + p.w[1] + arr[2].z + arr[0].tag;
}
