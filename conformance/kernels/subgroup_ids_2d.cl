// @options -cl-std=CL3.0
// @buf out uint 216 zero
// @run k g=12,6 l=6,3 : out
// @check out subgroup_ids_6x3
// 2-D groups of 6 x 3: a sub-group (four consecutive local linear ids)
// may span two rows; no barrier, so the lanes run it.
kernel void k(global uint *out) {
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    out[i * 3 + 0] = get_sub_group_id();
    out[i * 3 + 1] = get_sub_group_local_id();
    out[i * 3 + 2] = get_sub_group_size() * 10 + get_num_sub_groups();
}
