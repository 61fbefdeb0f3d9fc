// @check races
// @run k g=16 l=16 : buf(64)
// Two work-items read an element in one epoch (the second read inline,
// where the element's read tag must come to say "several"), then the second
// writes it: a race with the first one's read.
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = tile[(l & 3) + ((l >> 3) << 2)]; //! race-other
    if (l >= 4 && l < 8)
        tile[l & 3] = x + 1; //! race
    out[get_global_id(0)] = x;
}
