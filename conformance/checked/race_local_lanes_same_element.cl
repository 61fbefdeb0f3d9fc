// @check races
// @run k g=16 l=16 : buf(64)
// Work-items 4 and 5 write one element in the same interval: one step of
// the lanes, after a step whose four elements differ (the site's cache is
// filled then), so the four cells are tested together.
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    tile[l == 5 ? 4 : l] = l; //! race
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[l];
}
