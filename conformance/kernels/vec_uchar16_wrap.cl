// @buf a uchar 1024 randbits
// @buf b uchar 1024 randbits
// @buf c uchar 1024 zero
// @run k g=64 : a b c
// @check c v_uchar16
kernel void k(global const uchar16 *a, global const uchar16 *b, global uchar16 *c) {
    int i = get_global_id(0);
    c[i] = a[i] + b[i];
}
