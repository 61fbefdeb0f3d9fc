// @check uninit
// @run k g=16 l=16 : buf(64)
// Half of a local array written before the barrier: the work-items that
// read the other half read it uninitialised (the first half's reads are
// inline, so the half left unwritten must not pass for written there).
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    if (l < 8)
        tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[l]; //! uninit
}
