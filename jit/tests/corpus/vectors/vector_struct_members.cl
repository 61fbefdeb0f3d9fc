// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct { float4 pos; float4 vel; float2 uv; uchar4 rgba; } vertex_t;
kernel void k(global vertex_t *v, float dt)
{
    vertex_t x = v[get_global_id(0)];
    x.pos.xyz += x.vel.xyz * dt;
    x.rgba.w = (uchar)255;
    v[get_global_id(0)] = x;
}
