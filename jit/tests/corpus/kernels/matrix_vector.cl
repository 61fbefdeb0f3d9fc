// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void gemv(global const float *A, global const float *x, global float *y, int cols, local float *part)
{
    int row = get_group_id(0), lid = get_local_id(0), ls = get_local_size(0);
    float s = 0.0f;
    for (int c = lid; c < cols; c += ls) s += A[row * cols + c] * x[c];
    part[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = ls / 2; off > 0; off /= 2) {
        if (lid < off) part[lid] += part[lid + off];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) y[row] = part[0];
}
