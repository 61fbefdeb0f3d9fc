// @check bounds
// @run k g=64 l=16 : buf(256)
// @report index 16 is outside the bounds of the array 'tile' of 16 elements
// @report global id (15), local id (15), group id (0)
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    tile[l + 1] = l; //! index
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[l];
}
