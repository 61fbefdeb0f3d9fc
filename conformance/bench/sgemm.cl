// SGEMM C = A * B (row-major, n x n, n a multiple of TS) with TS x TS tiles
// of A and B staged through local memory; one work-item per element of C.
#define TS 16
kernel void sgemm(global const float *A, global const float *B, global float *C, uint n)
{
    local float As[TS][TS];
    local float Bs[TS][TS];
    uint col = get_global_id(0);
    uint row = get_global_id(1);
    uint lc = get_local_id(0);
    uint lr = get_local_id(1);
    float acc = 0.0f;
    for (uint t = 0; t < n; t += TS) {
        As[lr][lc] = A[row * n + t + lc];
        Bs[lr][lc] = B[(t + lr) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TS; k++)
            acc += As[lr][k] * Bs[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
