// @buf out uint 500 zero
// @run k g=500 l=50 o=100 : out
// @check out iota_plus100
kernel void k(global uint *out) {
    size_t g = get_global_id(0);
    out[g - get_global_offset(0)] = (uint)g;
}
