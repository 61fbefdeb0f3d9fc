// @buf f float 300 rand(-400,400)
// @buf out int 900 zero
// @run k g=300 : f out
// @check out convert_sat
kernel void k(global const float *f, global int *out) {
    int i = get_global_id(0);
    out[3 * i] = (int)f[i];
    out[3 * i + 1] = convert_uchar_sat(f[i]);
    out[3 * i + 2] = convert_char_sat_rte(f[i]);
}
