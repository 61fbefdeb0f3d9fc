// @buf out float 8 zero
// @buf z float 1 const(0)
// @run k g=1 : z out
// @check out ieee_specials
kernel void k(global const float *z, global float *out) {
    float zero = z[0];
    out[0] = 1.0f / zero;
    out[1] = -1.0f / zero;
    out[2] = zero / zero;
    out[3] = sqrt(-1.0f + zero);
    out[4] = 1e38f * 10.0f;
    out[5] = -zero;
    out[6] = 1.0f / (-1.0f / zero);
    out[7] = 3.0f / 7.0f;
}
