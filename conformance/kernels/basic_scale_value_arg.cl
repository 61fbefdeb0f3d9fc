// @buf in int 256 rand
// @buf out int 256 zero
// @run scale g=256 l=32 : in out int(7)
// @check out scale7
kernel void scale(global const int *in, global int *out, int k) {
    out[get_global_id(0)] = in[get_global_id(0)] * k;
}
