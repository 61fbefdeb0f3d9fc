// @check bounds
// @run k g=256 l=64 : buf(1024)
kernel void k(global int *out)
{
    int i = get_global_id(0);
    out[i - 1] = i; //! invalid-write
}
