// @buf out uint 2880 zero
// @run k g=12,10,8 l=4,5,2 o=3,7,11 : out
// @check out range3d
kernel void k(global uint *out) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t i = (z * 10 + y) * 12 + x;
    out[3 * i] = get_global_id(0) + 100 * get_global_id(1) + 10000 * get_global_id(2);
    out[3 * i + 1] = get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2);
    out[3 * i + 2] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2) + 1000 * get_work_dim();
}
