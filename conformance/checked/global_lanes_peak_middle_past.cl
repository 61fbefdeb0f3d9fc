// @check bounds
// @run k g=16 l=16 : buf(56) buf(64)
// @report global id (14), local id (14), group id (0)
// `2 * min(x, n) - x` rises up to `x = n` and falls after it: not a
// rising place, though each of its parts rises. In the last step (x = 12
// to 15, n = 14) the places are 12, 13, 14, 13: the third work-item's is
// one past the end while the first and the last lane's are inside, so the
// test must look at every lane.
kernel void k(global const int *in, global int *out)
{
    int x = get_global_id(0);
    int n = 14;
    out[x] = in[2 * min(x, n) - x]; //! invalid-read
}
