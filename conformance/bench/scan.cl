// Inclusive prefix sum of uints (wrapping), in blocks of 2 * local_size
// elements: scan_blocks scans each block of `in` in local memory
// (work-efficient up-sweep and down-sweep) into `out` (which may be `in`)
// and writes the block's total to sums; add_offsets adds the scanned total
// of the blocks before each block. The host scans the block sums with the
// same two kernels, recursively.
kernel void scan_blocks(global const uint *in, global uint *out, global uint *sums, local uint *tmp)
{
    uint lid = get_local_id(0);
    uint m = get_local_size(0) * 2;
    size_t base = get_group_id(0) * m;
    uint x0 = in[base + 2 * lid];
    uint x1 = in[base + 2 * lid + 1];
    tmp[2 * lid] = x0;
    tmp[2 * lid + 1] = x1;
    uint offset = 1;
    for (uint d = m >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            uint ai = offset * (2 * lid + 1) - 1;
            uint bi = offset * (2 * lid + 2) - 1;
            tmp[bi] += tmp[ai];
        }
        offset <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        sums[get_group_id(0)] = tmp[m - 1];
        tmp[m - 1] = 0;
    }
    for (uint d = 1; d < m; d <<= 1) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            uint ai = offset * (2 * lid + 1) - 1;
            uint bi = offset * (2 * lid + 2) - 1;
            uint t = tmp[ai];
            tmp[ai] = tmp[bi];
            tmp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // tmp holds the exclusive scan; add the element itself for the inclusive one.
    out[base + 2 * lid] = x0 + tmp[2 * lid];
    out[base + 2 * lid + 1] = x1 + tmp[2 * lid + 1];
}

kernel void add_offsets(global uint *data, global const uint *scanned_sums)
{
    size_t g = get_group_id(0);
    if (g == 0)
        return;
    uint add = scanned_sums[g - 1];
    uint m = get_local_size(0) * 2;
    size_t base = g * m;
    uint lid = get_local_id(0);
    data[base + 2 * lid] += add;
    data[base + 2 * lid + 1] += add;
}
