// @buf a int 512 rand
// @buf b int 512 rand
// @buf c int 1024 zero
// @run k g=256 : a b c
// @check c v_int2
kernel void k(global const int2 *a, global const int2 *b, global int2 *c) {
    int i = get_global_id(0);
    c[2 * i] = a[i] + b[i];
    c[2 * i + 1] = a[i] * 3;
}
