// @check races
// @run k g=16 l=16 : buf(64)
kernel void k(global int *out)
{
    local int sum;
    int l = get_local_id(0);
    if (l == 0)
        sum = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        sum = 5; //! race
    out[get_global_id(0)] = sum; //! race-other
}
