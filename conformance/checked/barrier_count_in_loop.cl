// @check barriers
// @run k g=32 l=8 : buf(128)
kernel void k(global int *out)
{
    int l = get_local_id(0);
    for (int j = 0; j < (l & 1) + 1; j++)
        barrier(CLK_GLOBAL_MEM_FENCE); //! divergence
    out[get_global_id(0)] = l;
}
