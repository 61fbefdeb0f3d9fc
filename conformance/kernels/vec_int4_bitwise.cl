// @buf a int 1024 randbits
// @buf b int 1024 randbits
// @buf c int 2048 zero
// @run k g=256 : a b c
// @check c v_int4_bits
kernel void k(global const int4 *a, global const int4 *b, global int4 *c) {
    int i = get_global_id(0);
    c[2 * i] = (a[i] & b[i]) | (a[i] ^ 0x0f0f);
    c[2 * i + 1] = ~a[i] + (b[i] >> 3);
}
