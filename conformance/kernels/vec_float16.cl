// @buf a float 1024 rand
// @buf b float 1024 rand
// @buf c float 1024 zero
// @run k g=64 : a b c
// @check c v_float16
kernel void k(global const float16 *a, global const float16 *b, global float16 *c) {
    int i = get_global_id(0);
    c[i] = a[i] * 2.0f + b[i];
}
