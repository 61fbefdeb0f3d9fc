// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct { float4 pos; float4 vel; } body_t;
kernel void nbody(global const body_t *in, global body_t *out, const int n, const float dt, const float eps2,
                  local float4 *tile)
{
    size_t gid = get_global_id(0), lid = get_local_id(0), lsize = get_local_size(0);
    float4 p = in[gid].pos;
    float3 acc = (float3)(0.0f);
    for (int base = 0; base < n; base += lsize) {
        tile[lid] = in[base + lid].pos;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < (int)lsize; j++) {
            float3 r = tile[j].xyz - p.xyz;
            float d2 = dot(r, r) + eps2;
            float inv = native_rsqrt(d2);
            acc += r * (tile[j].w * inv * inv * inv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = in[gid].vel;
    v.xyz += acc * dt;
    out[gid].vel = v;
    out[gid].pos = (float4)(p.xyz + v.xyz * dt, p.w);
}
