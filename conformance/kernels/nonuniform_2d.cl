// @options -cl-std=CL2.0
// @buf out uint 3000 zero
// @run k g=50,30 l=16,8 : out
// @check out nonuniform2d
kernel void k(global uint *out) {
    size_t x = get_global_id(0), y = get_global_id(1);
    out[2 * (y * 50 + x)] = get_local_size(0) * 100 + get_local_size(1);
    out[2 * (y * 50 + x) + 1] = get_enqueued_local_size(0) * 100 + get_enqueued_local_size(1);
}
