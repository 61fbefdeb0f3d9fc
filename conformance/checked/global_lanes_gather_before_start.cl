// @check bounds
// @run k g=16 l=16 : buf(64) buf(64)
// @report global id (13), local id (13), group id (0)
// A gather at places no step of four work-items has in order (a
// permutation); in the last step the second work-item's place is one
// before the start: the four lanes' one test looks below the object too.
kernel void k(global const int *in, global int *out)
{
    int l = get_global_id(0);
    int j = l == 13 ? -1 : (l * 5) % 16;
    out[l] = in[j]; //! invalid-read
}
