// @check all
// @run k g=256 l=64 : buf(1024) buf(256)
kernel void k(global const int *in, global int *hist)
{
    local int bins[16];
    int l = get_local_id(0);
    if (l < 16)
        atomic_xchg(&bins[l], 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[in[get_global_id(0)] & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16)
        atomic_add(&hist[l], bins[l]);
}
