// @check all
// @run k g=16 l=8 : buf(64)
kernel void k(global int *out)
{
    local int tile[8];
    int l = get_local_id(0);
    int mine;
    tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l != 0)
        mine = tile[l - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = mine; //! uninit
}
