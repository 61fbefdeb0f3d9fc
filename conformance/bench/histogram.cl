// 256-bin histogram of bytes: each work-group counts into its own local
// histogram with local atomics (work-items stride through the group's
// chunk), then adds its bins to the global histogram with global atomics.
kernel void histogram256(global const uchar *data, uint per_group, global uint *hist)
{
    local uint bins[256];
    uint lid = get_local_id(0);
    uint lsz = get_local_size(0);
    for (uint b = lid; b < 256; b += lsz)
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t base = get_group_id(0) * (size_t)per_group;
    for (uint k = lid; k < per_group; k += lsz)
        atomic_inc(&bins[data[base + k]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 256; b += lsz)
        if (bins[b] != 0)
            atomic_add(&hist[b], bins[b]);
}
