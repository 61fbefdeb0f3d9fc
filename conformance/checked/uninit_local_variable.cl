// @check uninit
// @run k g=32 l=16 : buf(128)
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    if (l > 0)
        tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[0]; //! uninit
}
