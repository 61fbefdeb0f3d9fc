// RUN: -cl-std=CL1.2
// EXPECT: ok
#define FILTER_RADIUS 2
#define FILTER_SIZE (2 * FILTER_RADIUS + 1)
constant float gaussian[FILTER_SIZE * FILTER_SIZE] = {
    1, 4, 7, 4, 1,  4, 16, 26, 16, 4,  7, 26, 41, 26, 7,  4, 16, 26, 16, 4,  1, 4, 7, 4, 1,
};
kernel void convolve(global const float *in, global float *out, int width, int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    float sum = 0.0f;
    for (int dy = -FILTER_RADIUS; dy <= FILTER_RADIUS; dy++)
        for (int dx = -FILTER_RADIUS; dx <= FILTER_RADIUS; dx++) {
            int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);
            sum += in[sy * width + sx] * gaussian[(dy + FILTER_RADIUS) * FILTER_SIZE + dx + FILTER_RADIUS];
        }
    out[y * width + x] = sum / 273.0f;
}
