// @check races-strict
// @run k g=16 l=16 : buf(64)
kernel void k(global int *out)
{
    local int flag;
    flag = 1; //! race
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = flag;
}
