// @check bounds
// @run k g=64 l=64 : buf(256)
kernel void k(global int *out)
{
    size_t i = get_global_id(0);
    out[i + 1000000] = 7; //! invalid-write
}
