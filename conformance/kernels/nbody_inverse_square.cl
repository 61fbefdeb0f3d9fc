// @buf pos float 512 rand(-10,10)
// @buf acc float 512 zero
// @run k g=128 l=32 : pos acc local(512)
// @check acc inverse_square tol=1e-4
kernel void k(global const float4 *pos, global float4 *acc, local float4 *tile) {
    int i = get_global_id(0), l = get_local_id(0), n = get_global_size(0), ls = get_local_size(0);
    float4 p = pos[i], a = (float4)(0.0f);
    for (int t = 0; t < n; t += ls) {
        tile[l] = pos[t + l];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < ls; j++) {
            float4 d = tile[j] - p;
            float s = tile[j].w / (d.x * d.x + d.y * d.y + d.z * d.z + 0.5f);
            a.x += d.x * s; a.y += d.y * s; a.z += d.z * s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[i] = a;
}
