// @check bounds
// @run k g=1 l=1 : buf(64) buf(4)
// @report global id (0), local id (0), group id (0)
// A loop `k += s` whose elements are tested together before it only when
// it moves forward: here `s` is -1, so `k` goes 2, 1, 0, -1 and reads one
// element before the start, which the loop's checked copy reports.
kernel void k(global const int *in, global int *out)
{
    int s = (int)get_local_size(0) - 2;
    int sum = 0;
    for (int k = 2; k < 16; k += s) {
        if (k < -1)
            break;
        sum += in[k]; //! invalid-read
    }
    out[0] = sum;
}
