// @options -cl-std=CL2.0
// @buf out uint 1000 zero
// @run k g=1000 l=64 : out
// @check out nonuniform1000_64
kernel void k(global uint *out) {
    size_t i = get_global_id(0);
    out[i] = get_local_size(0) * 100000 + get_group_id(0) * 100 + get_num_groups(0);
}
