// @options -cl-std=CL2.0
// @buf in int 1000 rand
// @buf out int 16 zero
// @run k g=1000 l=64 : in out
// @check out nonuniform_sums
kernel void k(global const int *in, global int *out) {
    local int t[64];
    size_t l = get_local_id(0), n = get_local_size(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int s = 0;
        for (size_t j = 0; j < n; j++) s += t[j];
        out[get_group_id(0)] = s;
    }
}
