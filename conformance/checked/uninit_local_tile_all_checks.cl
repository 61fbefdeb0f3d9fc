// @check all
// @run k g=32 l=16 : buf(128)
// Under every check, the subscript of `tile` is tested, so the reads
// between the barriers are known to be elements of `tile` and first ask
// whether the group wrote the whole tile (one compare when it did): half
// of it is never written here, so those reads still count as
// uninitialised.
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
