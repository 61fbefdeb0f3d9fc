// @check races
// @run k g=32 l=16 : buf(128)
// Two work-items write one element (at a stride of two elements, the
// lanes' addresses tested together) in the same interval.
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    tile[2 * (l / 2)] = l; //! race
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[2 * (l / 2)];
}
