// @check barriers
// @run k g=32 l=16 : buf(128)
kernel void k(global int *out)
{
    int l = get_local_id(0);
    out[get_global_id(0)] = l;
    if (l >= 8)
        return;
    barrier(CLK_GLOBAL_MEM_FENCE); //! divergence
    out[get_global_id(0)] = l + 1;
}
