// @buf in int 512 rand
// @buf out int 512 zero
// @run k g=512 l=64 : in out
// @check out clamp_i
kernel void k(global const int *in, global int *out) {
    int i = get_global_id(0);
    out[i] = clamp(in[i], -100, 100);
}
