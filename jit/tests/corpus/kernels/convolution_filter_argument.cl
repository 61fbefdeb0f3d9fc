// RUN: -cl-std=CL3.0
// EXPECT: ok
kernel void convolve1d(global const float *in, constant float *filter, int radius, global float *out, int n)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int k = -radius; k <= radius; k++) {
        int j = clamp(i + k, 0, n - 1);
        acc = fma(in[j], filter[k + radius], acc);
    }
    out[i] = acc;
}
