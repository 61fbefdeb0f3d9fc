// @check barriers
// @run k g=32 l=16 : buf(128)
void sync_here(void)
{
    barrier(CLK_LOCAL_MEM_FENCE); //! divergence
}
kernel void k(global int *out)
{
    int l = get_local_id(0);
    if (l != 3)
        sync_here();
    out[get_global_id(0)] = l;
}
