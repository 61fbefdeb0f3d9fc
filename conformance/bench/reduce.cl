// Tree reduction: each work-group sums 2 * local_size consecutive floats
// (each work-item adds two, then halving steps in local memory with a
// barrier between steps) and writes one partial sum per group.
kernel void reduce_sum(global const float *in, global float *partial, local float *scratch)
{
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);
    size_t i = get_group_id(0) * lsz * 2 + lid;
    scratch[lid] = in[i] + in[i + lsz];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = lsz / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
