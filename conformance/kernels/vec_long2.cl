// @buf a long 256 randbits
// @buf b long 256 randbits
// @buf c long 512 zero
// @run k g=128 : a b c
// @check c v_long2
kernel void k(global const long2 *a, global const long2 *b, global long2 *c) {
    int i = get_global_id(0);
    c[2 * i] = a[i] + b[i];
    c[2 * i + 1] = a[i] << 3;
}
