// @check races
// @run k g=64 l=16 : buf(64)
kernel void k(global int *out)
{
    int l = get_local_id(0);
    out[l] = get_global_id(0); //! race
}
