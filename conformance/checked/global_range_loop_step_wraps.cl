// @check bounds
// @run k g=1 l=1 : buf(64) buf(4)
// @report global id (0), local id (0), group id (0)
// A `uint` counter stepped by 0xFFFFFFFF wraps: `k` goes 2, 1, 0 (then
// 0xFFFFFFFF ends the loop), below its first value, so the range from
// the first `k` to the bound does not hold the elements it reaches:
// `in[base + k]` reads two elements before the start.
kernel void k(global const int *in, global int *out)
{
    uint s = 0xFFFFFFFFu;
    long base = -2;
    int sum = 0;
    for (uint k = 2; k < 16; k += s)
        sum += in[base + k]; //! invalid-read
    out[0] = sum;
}
