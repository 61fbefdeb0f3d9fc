// @buf pos float 1024 rand(-10,10)
// @buf acc float 1024 zero
// @run nbody g=256 l=64 : pos acc local(1024)
// @check acc nbody_acc tol=1e-3
kernel void nbody(global const float4 *pos, global float4 *acc, local float4 *tile) {
    int i = get_global_id(0), l = get_local_id(0), n = get_global_size(0), ls = get_local_size(0);
    float4 p = pos[i];
    float4 a = (float4)(0.0f);
    for (int t = 0; t < n; t += ls) {
        tile[l] = pos[t + l];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < ls; j++) {
            float4 d = tile[j] - p;
            float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 0.01f;
            float inv = rsqrt(r2);
            float s = tile[j].w * inv * inv * inv;
            a.x += d.x * s; a.y += d.y * s; a.z += d.z * s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[i] = a;
}
