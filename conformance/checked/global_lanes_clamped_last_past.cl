// @check bounds
// @run k g=16 l=16 : buf(64) buf(64)
// @report global id (15), local id (15), group id (0)
// A convolution's clamped column, clamped one too far (`w`, not `w - 1`):
// the lanes' places rise, so their test looks at the first and the last
// lane, and the last work-item's read one past the end is found there.
kernel void k(global const int *in, global int *out)
{
    int x = get_global_id(0);
    int w = get_global_size(0);
    int s = 0;
    for (int dx = -1; dx <= 1; dx++) {
        int xx = clamp(x + dx, 0, w);
        s += in[xx]; //! invalid-read
    }
    out[x] = s;
}
