// @buf a float 512 rand
// @buf b float 512 rand
// @buf c float 512 zero
// @run k g=256 : a b c
// @check c v_float2
kernel void k(global const float2 *a, global const float2 *b, global float2 *c) {
    int i = get_global_id(0);
    c[i] = a[i] * b[i] + (float2)(1.0f, 2.0f);
}
