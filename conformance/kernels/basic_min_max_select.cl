// @buf a int 256 rand
// @buf b int 256 rand
// @buf out int 768 zero
// @run k g=256 : a b out
// @check out minmaxsel
kernel void k(global const int *a, global const int *b, global int *out) {
    int i = get_global_id(0);
    out[3 * i] = min(a[i], b[i]);
    out[3 * i + 1] = max(a[i], b[i]);
    out[3 * i + 2] = select(a[i], b[i], a[i] < b[i]);
}
