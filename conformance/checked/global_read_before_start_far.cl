// @check bounds
// @run k g=256 l=64 : buf(1024) buf(1024)
kernel void k(global int *out, global const int *in)
{
    int i = get_global_id(0);
    out[i] = in[i - 4096]; //! invalid-read
}
