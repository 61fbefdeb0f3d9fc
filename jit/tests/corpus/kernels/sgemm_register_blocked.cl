// RUN: -cl-std=CL1.2
// EXPECT: ok
#define TS 32
#define WPT 4
#define RTS (TS / WPT)
kernel void sgemm_wpt(const int M, const int N, const int K,
                      const global float *A, const global float *B, global float *C)
{
    const int row = get_local_id(0), col = get_local_id(1);
    const int globalRow = TS * get_group_id(0) + row;
    const int globalCol = TS * get_group_id(1) + col;
    local float Asub[TS][TS], Bsub[TS][TS];
    float acc[WPT];
    for (int w = 0; w < WPT; w++) acc[w] = 0.0f;
    for (int t = 0; t < K / TS; t++) {
        for (int w = 0; w < WPT; w++) {
            Asub[col + w * RTS][row] = A[(TS * t + col + w * RTS) * M + globalRow];
            Bsub[col + w * RTS][row] = B[(globalCol + w * RTS) * K + TS * t + row];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            for (int w = 0; w < WPT; w++)
                acc[w] += Asub[k][row] * Bsub[col + w * RTS][k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int w = 0; w < WPT; w++)
        C[(globalCol + w * RTS) * M + globalRow] = acc[w];
}
