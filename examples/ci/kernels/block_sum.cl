// Each work-group sums its block of `in` in local memory (a tree with a
// barrier per step) and writes one partial sum per group.
kernel void block_sum(global const float *in, global float *partial,
                      local float *scratch)
{
    size_t lid = get_local_id(0);
    size_t n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t step = n / 2; step > 0; step /= 2) {
        if (lid < step)
            scratch[lid] += scratch[lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
