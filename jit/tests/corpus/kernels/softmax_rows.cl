// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void softmax(global const float *in, global float *out, int cols)
{
    int row = get_global_id(0);
    global const float *r = in + row * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; c++) m = fmax(m, r[c]);
    float sum = 0.0f;
    for (int c = 0; c < cols; c++) sum += exp(r[c] - m);
    for (int c = 0; c < cols; c++) out[row * cols + c] = exp(r[c] - m) / sum;
}
