// @check races
// @run k g=32 l=16 : buf(128)
// A piece alone between two barriers that calls a function writing local
// memory: it is not read-only, its reads keep their read tags, and the
// function's write of the neighbour's word races with the neighbour's read
// (work-item 8's, past the group's first step).
void poke(local int *t, int l)
{
    if (l == 8)
        t[9] = l; //! race
}

kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = tile[l]; //! race-other
    poke(tile, l);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = v + tile[l];
}
