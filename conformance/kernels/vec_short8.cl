// @buf a short 512 randbits
// @buf b short 512 randbits
// @buf c short 512 zero
// @run k g=64 : a b c
// @check c v_short8
kernel void k(global const short8 *a, global const short8 *b, global short8 *c) {
    int i = get_global_id(0);
    c[i] = a[i] * b[i];
}
