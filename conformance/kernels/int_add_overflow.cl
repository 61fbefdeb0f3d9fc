// @buf a int 512 randbits
// @buf b int 512 randbits
// @buf out int 1024 zero
// @run k g=512 : a b out
// @check out int_wrap
kernel void k(global const int *a, global const int *b, global int *out) {
    int i = get_global_id(0);
    out[2 * i] = a[i] + b[i];
    out[2 * i + 1] = a[i] * b[i];
}
