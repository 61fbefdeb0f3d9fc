// @check barriers
// @run k g=16 l=16 : buf(64)
kernel void k(global int *out)
{
    int l = get_local_id(0);
    if (l & 1)
        barrier(CLK_LOCAL_MEM_FENCE);
    else
        barrier(CLK_LOCAL_MEM_FENCE); //! divergence
    out[get_global_id(0)] = l;
}
