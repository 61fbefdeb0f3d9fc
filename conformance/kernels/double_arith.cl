// @options -cl-std=CL3.0
// @buf a double 256 rand(-100,100)
// @buf b double 256 rand(1,100)
// @buf out double 1024 zero
// @run k g=256 : a b out
// @check out double_arith
kernel void k(global const double *a, global const double *b, global double *out) {
    int i = get_global_id(0);
    out[4 * i] = a[i] + b[i] * 3.0;
    out[4 * i + 1] = a[i] / b[i];
    out[4 * i + 2] = sqrt(b[i]);
    out[4 * i + 3] = fma(a[i], b[i], 1e-10);
}
