// @buf a float 256 rand
// @buf b float 256 rand
// @buf out float 768 zero
// @run k g=256 : a b out
// @check out mix_step tol=1e-6
kernel void k(global const float *a, global const float *b, global float *out) {
    int i = get_global_id(0);
    out[3 * i] = mix(a[i], b[i], 0.25f);
    out[3 * i + 1] = step(0.0f, a[i]);
    out[3 * i + 2] = clamp(a[i] * 3.0f, -1.0f, 1.0f);
}
