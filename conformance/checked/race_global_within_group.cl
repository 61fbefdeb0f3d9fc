// @check races
// @run k g=16 l=16 : buf(64)
kernel void k(global int *out)
{
    int l = get_local_id(0);
    out[0] = l; //! race
}
