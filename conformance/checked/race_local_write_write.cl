// @check races
// @run k g=32 l=16 : buf(128)
kernel void k(global int *out)
{
    local int last;
    last = get_local_id(0); //! race
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = last;
}
