// @buf img float 4096 rand
// @buf filt float 9 list(1,2,1,2,4,2,1,2,1)
// @buf out float 4096 zero
// @run conv g=64,64 l=8,8 : img filt out
// @check out conv3x3 tol=1e-6
kernel void conv(global const float *img, constant float *filt, global float *out) {
    int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0), h = get_global_size(1);
    float s = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int xx = clamp(x + dx, 0, w - 1), yy = clamp(y + dy, 0, h - 1);
            s += filt[(dy + 1) * 3 + dx + 1] * img[yy * w + xx];
        }
    out[y * w + x] = s / 16.0f;
}
