// @check bounds
// @run k g=1 l=1 : buf(64) buf(4)
// @report global id (0), local id (0), group id (0)
// A loop's elements `in[base + k]` are tested together before it from
// `base + first k` to `base + last k`: here the last is one past the end.
kernel void k(global const int *in, global int *out)
{
    size_t base = get_local_size(0);
    int sum = 0;
    for (uint k = 0; k < 16; k++)
        sum += in[base + k]; //! invalid-read
    out[0] = sum;
}
