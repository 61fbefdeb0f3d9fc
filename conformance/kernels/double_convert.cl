// @options -cl-std=CL3.0
// @buf a double 256 rand(-1000,1000)
// @buf out float 256 zero
// @buf outi long 256 zero
// @run k g=256 : a out outi
// @check out double_to_float
// @check outi double_to_long
kernel void k(global const double *a, global float *out, global long *outi) {
    int i = get_global_id(0);
    out[i] = (float)a[i];
    outi[i] = (long)(a[i] * 1e6);
}
