// @buf a float 512 rand
// @buf c float 1024 zero
// @run k g=128 : a c
// @check c v_swizzle
kernel void k(global const float4 *a, global float4 *c) {
    int i = get_global_id(0);
    float4 v = a[i];
    c[2 * i] = v.wzyx + v.xxyy;
    float4 w;
    w.s01 = v.s23;
    w.hi = v.lo * 2.0f;
    w.x += v.odd.y;
    c[2 * i + 1] = w;
}
