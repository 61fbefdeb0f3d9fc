// @buf x float 512 rand(-20,20)
// @buf out float 3072 zero
// @run k g=512 : x out
// @check out rounding
kernel void k(global const float *x, global float *out) {
    int i = get_global_id(0);
    float v = x[i];
    out[6 * i] = floor(v);
    out[6 * i + 1] = ceil(v);
    out[6 * i + 2] = fabs(v);
    out[6 * i + 3] = fmin(v, 1.5f);
    out[6 * i + 4] = fmax(v, -1.5f);
    out[6 * i + 5] = fma(v, 3.0f, 0.25f);
}
