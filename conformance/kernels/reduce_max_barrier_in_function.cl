// @buf in int 4096 rand
// @buf out int 64 zero
// @run k g=4096 l=64 : in out
// @check out group_max64
void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
int group_max(local int *t, int v) {
    size_t l = get_local_id(0);
    t[l] = v;
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        sync();
        if (l < s) t[l] = max(t[l], t[l + s]);
    }
    sync();
    return t[0];
}
kernel void k(global const int *in, global int *out) {
    local int t[64];
    int m = group_max(t, in[get_global_id(0)]);
    if (get_local_id(0) == 0) out[get_group_id(0)] = m;
}
