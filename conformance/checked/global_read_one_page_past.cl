// @check bounds
// @run k g=64 l=64 : buf(256) buf(256)
kernel void k(global int *out, global const int *in)
{
    size_t i = get_global_id(0);
    out[i] = in[i + 1024]; //! invalid-read
}
