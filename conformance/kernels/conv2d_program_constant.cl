// @buf img float 4096 rand
// @buf out float 4096 zero
// @run conv g=64,64 : img out
// @check out conv5x5 tol=1e-5
constant float weights[25] = {
    1, 4, 6, 4, 1,  4, 16, 24, 16, 4,  6, 24, 36, 24, 6,  4, 16, 24, 16, 4,  1, 4, 6, 4, 1 };
kernel void conv(global const float *img, global float *out) {
    int x = get_global_id(0), y = get_global_id(1), w = 64, h = 64;
    float s = 0.0f;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int xx = clamp(x + dx, 0, w - 1), yy = clamp(y + dy, 0, h - 1);
            s += weights[(dy + 2) * 5 + dx + 2] * img[yy * w + xx];
        }
    out[y * w + x] = s / 256.0f;
}
