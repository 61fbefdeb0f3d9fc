// @buf in uint 256 rand
// @buf out uint 256 zero
// @run k g=256 : in out
// @check out digits_sum
kernel void k(global const uint *in, global uint *out) {
    uint v = in[get_global_id(0)], s = 0;
    do { s += v % 10; v /= 10; } while (v);
    out[get_global_id(0)] = s > 10 ? s : s * 2;
}
