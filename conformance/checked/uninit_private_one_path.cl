// @check uninit
// @run k g=16 l=8 : buf(64)
kernel void k(global int *out)
{
    int gid = get_global_id(0);
    int x;
    if (gid & 1)
        x = 1;
    out[gid] = x; //! uninit
}
