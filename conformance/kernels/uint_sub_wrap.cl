// @buf a uint 512 randbits
// @buf b uint 512 randbits
// @buf out uint 512 zero
// @run k g=512 : a b out
// @check out uint_sub
kernel void k(global const uint *a, global const uint *b, global uint *out) {
    out[get_global_id(0)] = a[get_global_id(0)] - b[get_global_id(0)] - 7u;
}
