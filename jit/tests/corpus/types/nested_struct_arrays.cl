// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct { float m[4][4]; } mat4_t;
typedef struct { mat4_t model; float4 color; int ids[3]; } object_t;
kernel void k(global object_t *objs, global float4 *out)
{
    object_t o = objs[get_global_id(0)];
    float4 r = o.color;
    for (int i = 0; i < 4; i++) r.x += o.model.m[i][i];
    out[get_global_id(0)] = r + (float4)(o.ids[2]);
}
