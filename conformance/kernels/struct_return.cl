// @buf in float 200 rand
// @buf out float 400 zero
// @run k g=100 : in out
// @check out struct_return
typedef struct { float lo, hi; } range;
range order(float a, float b) { range r; r.lo = a < b ? a : b; r.hi = a < b ? b : a; return r; }
kernel void k(global const float *in, global float *out) {
    int i = get_global_id(0);
    range r = order(in[2 * i], in[2 * i + 1]);
    out[2 * i] = r.lo;
    out[2 * i + 1] = r.hi;
}
