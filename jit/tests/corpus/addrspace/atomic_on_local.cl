// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *hist, global const uchar *data)
{
    local int bins[16];
    if (get_local_id(0) < 16) bins[get_local_id(0)] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[data[get_global_id(0)] & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 16) atomic_add(&hist[get_local_id(0)], bins[get_local_id(0)]);
}
