// @buf in int 8192 rand
// @buf out int 32 zero
// @run reduce g=8192 l=256 : in out local(1024)
// @check out group_sums256
kernel void reduce(global const int *in, global int *out, local int *t) {
    size_t l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s) t[l] += t[l + s];
    }
    if (l == 0) out[get_group_id(0)] = t[0];
}
