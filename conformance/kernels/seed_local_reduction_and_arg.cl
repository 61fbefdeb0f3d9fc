// @buf in int 1024 rand
// @buf out int 16 zero
// @run k g=1024 l=64 : in out local(256)
// @check out group_sums64
kernel void k(global const int *in, global int *out, local int *scratch) {
    local int total;
    int l = get_local_id(0);
    if (l == 0) total = 0;
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) { for (int j = 0; j < 64; j++) total += scratch[j]; }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) out[get_group_id(0)] = total;
}
