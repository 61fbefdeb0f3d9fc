// @check races
// @run k g=32 l=16 : buf(128)
kernel void k(global int *out)
{
    local int tile[16];
    int l = get_local_id(0);
    tile[l] = l * 3; //! race
    out[get_global_id(0)] = tile[(l + 1) % 16]; //! race-other
}
