// @options -cl-std=CL2.0
// @buf buf int 64 zero
// @buf out int 576 zero
// @run k g=64 l=16 : buf out
// @check out to_space
int flags(int *p) {
    return (to_global(p) != 0) | ((to_local(p) != 0) << 1) | ((to_private(p) != 0) << 2);
}
kernel void k(global int *buf, global int *out) {
    local int t[16];
    int priv[2] = {0, 0};
    int g = get_global_id(0);
    int *ps[3] = { &buf[g], &t[get_local_id(0)], &priv[1] };
    for (int j = 0; j < 3; j++) {
        out[9 * g + 3 * j] = flags(ps[j]);
        out[9 * g + 3 * j + 1] = to_global(ps[j]) == (global int *)ps[j] || to_global(ps[j]) == 0;
        out[9 * g + 3 * j + 2] = j < 2 ? (int)get_fence(ps[j]) : 0;
    }
}
