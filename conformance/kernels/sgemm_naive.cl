// @buf a float 4096 rand
// @buf b float 4096 rand
// @buf c float 4096 zero
// @run mm g=64,64 l=8,8 : a b c int(64)
// @check c matmul64 tol=1e-5
kernel void mm(global const float *a, global const float *b, global float *c, int n) {
    int col = get_global_id(0), row = get_global_id(1);
    float s = 0.0f;
    for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];
    c[row * n + col] = s;
}
