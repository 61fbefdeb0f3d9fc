// @buf a int 1024 rand
// @buf b int 1024 rand
// @buf c int 2048 zero
// @run k g=256 : a b c
// @check c v_cmp_sel
kernel void k(global const int4 *a, global const int4 *b, global int4 *c) {
    int i = get_global_id(0);
    int4 m = a[i] < b[i];
    c[2 * i] = m;
    c[2 * i + 1] = select(a[i], b[i], m);
}
