// 5x5 convolution of a width x height float image with a filter in constant
// memory; coordinates outside the image are clamped to its edge.
kernel void conv5x5(global const float *in, global float *out, constant float *filter)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int w = get_global_size(0);
    int h = get_global_size(1);
    float sum = 0.0f;
    for (int dy = -2; dy <= 2; dy++) {
        int yy = clamp(y + dy, 0, h - 1);
        for (int dx = -2; dx <= 2; dx++) {
            int xx = clamp(x + dx, 0, w - 1);
            sum += filter[(dy + 2) * 5 + (dx + 2)] * in[yy * w + xx];
        }
    }
    out[y * w + x] = sum;
}
