// @buf a int 1024 rand
// @buf b int 1024 rand
// @buf c int 1024 zero
// @run k g=128 : a b c
// @check c v_int8
kernel void k(global const int8 *a, global const int8 *b, global int8 *c) {
    int i = get_global_id(0);
    c[i] = (a[i] - b[i]) >> 1;
}
