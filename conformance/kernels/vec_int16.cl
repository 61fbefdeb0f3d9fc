// @buf a int 1024 rand
// @buf b int 1024 rand
// @buf c int 1024 zero
// @run k g=64 : a b c
// @check c v_int16
kernel void k(global const int16 *a, global const int16 *b, global int16 *c) {
    int i = get_global_id(0);
    c[i] = a[i] * b[i] + 1;
}
