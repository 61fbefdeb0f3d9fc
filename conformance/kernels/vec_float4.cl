// @buf a float 1024 rand
// @buf b float 1024 rand
// @buf c float 1024 zero
// @run k g=256 l=64 : a b c
// @check c v_float4
kernel void k(global const float4 *a, global const float4 *b, global float4 *c) {
    int i = get_global_id(0);
    c[i] = a[i] * b[i] - a[i];
}
