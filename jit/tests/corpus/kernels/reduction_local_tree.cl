// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void reduce_sum(global const float *in, global float *partial, local float *scratch, uint n)
{
    size_t gid = get_global_id(0), lid = get_local_id(0), lsize = get_local_size(0);
    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = lsize / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
