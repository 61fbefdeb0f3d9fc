// @buf m float 8192 rand
// @buf v float 128 rand
// @buf out float 64 zero
// @run mv g=64 l=16 : m v out int(128)
// @check out matvec tol=1e-5
kernel void mv(global const float *m, global const float *v, global float *out, int cols) {
    int r = get_global_id(0);
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += m[r * cols + c] * v[c];
    out[r] = s;
}
