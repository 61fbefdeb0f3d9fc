// @buf a int 256 randbits
// @buf b int 256 randbits
// @buf out int 1536 zero
// @run k g=256 : a b out
// @check out int_builtins
kernel void k(global const int *a, global const int *b, global int *out) {
    int i = get_global_id(0);
    out[6 * i] = mul_hi(a[i], b[i]);
    out[6 * i + 1] = rotate(a[i], b[i]);
    out[6 * i + 2] = (int)abs(a[i]);
    out[6 * i + 3] = add_sat(a[i], b[i]);
    out[6 * i + 4] = popcount(a[i]);
    out[6 * i + 5] = clz(a[i]);
}
