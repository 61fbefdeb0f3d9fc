// @options -cl-std=CL3.0
// @buf in int 270 rand(-1000,1000)
// @buf out int 810 zero
// @run k g=270 l=27 : in out
// @check out subgroup_reduce_scan27
// Groups of 27 work-items: six sub-groups of four and one of three.
kernel void k(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    int v = in[i];
    out[i * 3 + 0] = sub_group_reduce_add(v);
    out[i * 3 + 1] = sub_group_scan_exclusive_add(v);
    out[i * 3 + 2] = sub_group_broadcast(v, get_sub_group_size() - 1) - sub_group_reduce_min(v);
}
