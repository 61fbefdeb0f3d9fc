// @buf a float 512 rand
// @buf c float 512 zero
// @run k g=128 : a c
// @check c float3_stride
// A float3 takes the room of a float4 in memory.
kernel void k(global const float3 *a, global float3 *c) {
    int i = get_global_id(0);
    float3 v = a[i];
    c[i] = v.zxy * 2.0f + (float3)(1.0f, 0.0f, -1.0f);
}
