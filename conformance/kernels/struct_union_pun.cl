// @buf in float 256 rand(-100,100)
// @buf out uint 256 zero
// @run k g=256 : in out
// @check out float_bits
typedef union { float f; uint u; } pun;
kernel void k(global const float *in, global uint *out) {
    pun p;
    p.f = in[get_global_id(0)];
    out[get_global_id(0)] = p.u;
}
