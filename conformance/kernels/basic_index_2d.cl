// @buf out int 128 zero
// @run k g=16,8 l=4,2 : out
// @check out idx2d
kernel void k(global int *out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = x * 100 + y;
}
