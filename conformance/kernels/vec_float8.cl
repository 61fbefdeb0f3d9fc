// @buf a float 1024 rand
// @buf b float 1024 rand
// @buf c float 1024 zero
// @run k g=128 : a b c
// @check c vadd_f_c
kernel void k(global const float8 *a, global const float8 *b, global float8 *c) {
    int i = get_global_id(0);
    c[i] = a[i] + b[i];
}
