// @check uninit
// @run k g=32 l=16 : buf(128)
// The read of the tile is the whole of its barrier interval and writes no
// local memory (its reads skip the read tags once the group has written the
// whole tile): half of the tile is never written, so those reads still
// count as uninitialised.
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    if (l < 8)
        tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = tile[l]; //! uninit
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = v;
}
