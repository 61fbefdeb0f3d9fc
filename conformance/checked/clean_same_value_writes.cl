// @check races
// @run k g=32 l=16 : buf(128)
kernel void k(global int *out)
{
    local int flag;
    flag = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = flag;
}
