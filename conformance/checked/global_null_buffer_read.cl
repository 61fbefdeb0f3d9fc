// @check bounds
// @run k g=16 l=16 : buf(64) null
kernel void k(global int *out, global const int *in)
{
    size_t i = get_global_id(0);
    out[i] = in[i]; //! invalid-read
}
