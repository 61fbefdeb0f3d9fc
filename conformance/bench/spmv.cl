// Sparse matrix times vector, y = A x, with A in CSR form (row_ptr, col,
// val): one work-item per row.
kernel void spmv_csr(uint rows, global const uint *row_ptr, global const uint *col,
                     global const float *val, global const float *x, global float *y)
{
    size_t r = get_global_id(0);
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (uint k = row_ptr[r]; k < row_ptr[r + 1]; k++)
        sum += val[k] * x[col[k]];
    y[r] = sum;
}
