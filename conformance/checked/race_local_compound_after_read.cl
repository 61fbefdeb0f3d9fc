// @check races
// @run k g=32 l=16 : buf(128)
// Each work-item reads its neighbour's word, then adds to its own: the
// compound assignment's write races with the neighbour's read made before
// it in the same interval (the compound assignment's own read leaves the
// read tags to its write, which must still see the neighbour's).
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = tile[(l + 1) % 16]; //! race-other
    tile[l] += 1; //! race
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = v + tile[l];
}
