// @check bounds
// @run k g=16 l=16 : buf(64) buf(64)
// @report global id (14), local id (14), group id (0)
// A gather at places no step of four work-items has in order (a
// permutation); in the last step the third work-item's place is one past
// the end, so the four lanes' one test must look at every lane.
kernel void k(global const int *in, global int *out)
{
    int l = get_global_id(0);
    int j = l == 14 ? 16 : (l * 5) % 16;
    out[l] = in[j]; //! invalid-read
}
