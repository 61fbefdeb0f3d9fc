// @buf x float 512 rand(0.01,50)
// @buf out float 2048 zero
// @run k g=512 : x out
// @check out math_basic tol=1e-6
kernel void k(global const float *x, global float *out) {
    int i = get_global_id(0);
    float v = x[i];
    out[4 * i] = sqrt(v);
    out[4 * i + 1] = rsqrt(v);
    out[4 * i + 2] = exp(v / 10.0f);
    out[4 * i + 3] = log(v);
}
