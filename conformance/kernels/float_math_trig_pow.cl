// @buf x float 512 rand(-3,3)
// @buf out float 2048 zero
// @run k g=512 : x out
// @check out math_trig tol=2e-6
kernel void k(global const float *x, global float *out) {
    int i = get_global_id(0);
    float v = x[i];
    out[4 * i] = sin(v);
    out[4 * i + 1] = cos(v);
    out[4 * i + 2] = tan(v / 4.0f);
    out[4 * i + 3] = pow(fabs(v) + 0.5f, 1.7f);
}
