// @buf a float 4096 rand
// @buf b float 4096 rand
// @buf c float 4096 zero
// @run mm g=64,64 l=16,16 : a b c int(64)
// @check c matmul64 tol=1e-5
#define TS 16
kernel void mm(global const float *a, global const float *b, global float *c, int n) {
    local float ta[TS][TS], tb[TS][TS];
    int lx = get_local_id(0), ly = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float s = 0.0f;
    for (int t = 0; t < n / TS; t++) {
        ta[ly][lx] = a[row * n + t * TS + lx];
        tb[ly][lx] = b[(t * TS + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++) s += ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = s;
}
