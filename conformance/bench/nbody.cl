// N-body, one step of the all-pairs gravitational interaction: positions are
// float4 (xyz, w = mass); each work-item owns one body and walks every body
// in tiles of the work-group's size staged through local memory.
kernel void nbody(global const float4 *pos, global const float4 *vel,
                  global float4 *new_pos, global float4 *new_vel,
                  local float4 *tile, uint n, float dt, float eps2)
{
    size_t i = get_global_id(0);
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);
    float4 p = pos[i];
    float3 acc = (float3)(0.0f, 0.0f, 0.0f);
    for (uint base = 0; base < n; base += lsz) {
        tile[lid] = pos[base + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < lsz; j++) {
            float4 q = tile[j];
            float3 d = q.xyz - p.xyz;
            float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps2;
            float inv = rsqrt(r2);
            float s = q.w * inv * inv * inv;
            acc += s * d;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[i];
    v.xyz += dt * acc;
    p.xyz += dt * v.xyz;
    new_vel[i] = v;
    new_pos[i] = p;
}
