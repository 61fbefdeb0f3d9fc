// @check bounds
// @run k g=128 l=32 : buf(1000)
kernel void k(global ulong *out)
{
    size_t i = get_global_id(0);
    if (i < 126)
        out[i] = i; //! invalid-write
}
