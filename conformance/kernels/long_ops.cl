// @buf a long 256 randbits
// @buf b long 256 randbits
// @buf out long 1024 zero
// @run k g=256 : a b out
// @check out long_ops
kernel void k(global const long *a, global const long *b, global long *out) {
    int i = get_global_id(0);
    out[4 * i] = a[i] * b[i];
    out[4 * i + 1] = a[i] + b[i];
    out[4 * i + 2] = a[i] << (b[i] & 255);
    out[4 * i + 3] = (long)((ulong)a[i] >> (ulong)b[i]);
}
