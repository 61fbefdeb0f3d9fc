// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void radix_count(global const uint *keys, global uint *counts, uint n, uint shift, local uint *local_counts)
{
    uint lid = get_local_id(0);
    if (lid < 16) local_counts[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint gid = get_global_id(0);
    if (gid < n) atomic_inc(&local_counts[(keys[gid] >> shift) & 0xFu]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16) counts[lid * get_num_groups(0) + get_group_id(0)] = local_counts[lid];
}
