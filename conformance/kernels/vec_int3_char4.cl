// @buf a int 512 rand
// @buf b char 512 randbits
// @buf c int 512 zero
// @buf d char 512 zero
// @run k g=128 : a b c d
// @check c int3_ops
// @check d char4_ops
kernel void k(global const int *a, global const char4 *b, global int *c, global char4 *d) {
    int i = get_global_id(0);
    int3 v = (int3)(a[4 * i], a[4 * i + 1], a[4 * i + 2]);
    int3 r = v * 2 - v.zxy;
    c[4 * i] = r.x; c[4 * i + 1] = r.y; c[4 * i + 2] = r.z; c[4 * i + 3] = a[4 * i + 3];
    d[i] = b[i] + b[i].wzyx;
}
