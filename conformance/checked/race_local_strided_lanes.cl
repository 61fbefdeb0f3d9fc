// @check races
// @run k g=32 l=16 : buf(128)
// Accesses at a stride of two elements (the lanes test their four
// addresses together): each work-item reads its neighbour's element, then
// writes its own in the same interval, which races with the read made by
// the work-item before it.
kernel void k(global int *out)
{
    local int tile[32];
    int l = get_local_id(0);
    tile[2 * l] = l;
    tile[2 * l + 1] = -l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = tile[2 * ((l + 1) % 16)]; //! race-other
    tile[2 * l] = v + 1; //! race
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[2 * l] + tile[2 * l + 1];
}
