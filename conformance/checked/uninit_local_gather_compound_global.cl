// @check races,uninit
// @run k g=16 l=16 : buf(64)
// @report reported 8 times at this place
// A compound assignment to global memory at gathered places (its read
// stores the write's tags for the write), adding local words half of
// which no work-item wrote: the eight work-items that read one (one step
// of the lanes) are each reported at their write, as one report of the
// place.
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    if (l >= 8)
        tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(l * 5) % 16] += tile[15 - l]; //! uninit
}
