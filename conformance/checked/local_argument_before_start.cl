// @check bounds
// @run k g=16 l=16 : buf(64) local(64)
kernel void k(global int *out, local int *scratch)
{
    int l = get_local_id(0);
    scratch[l - 2] = l; //! invalid-write
    out[get_global_id(0)] = 0;
}
