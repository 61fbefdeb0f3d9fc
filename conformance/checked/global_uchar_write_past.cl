// @check bounds
// @run k g=100 l=10 : buf(99)
kernel void k(global uchar *out)
{
    size_t i = get_global_id(0);
    out[i] = (uchar)i; //! invalid-write
}
