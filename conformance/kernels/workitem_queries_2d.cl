// @buf out uint 1536 zero
// @run k g=32,16 l=8,4 : out
// @check out wi2d
kernel void k(global uint *out) {
    size_t i = get_global_id(1) * 32 + get_global_id(0);
    out[3 * i] = get_num_groups(0) * 10 + get_num_groups(1);
    out[3 * i + 1] = get_global_size(0) * 100 + get_global_size(1);
    out[3 * i + 2] = get_local_size(2) + get_global_size(2) * 10 + get_num_groups(2) * 100 + get_group_id(2);
}
