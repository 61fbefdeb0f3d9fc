// RUN: -cl-std=CL1.2
// EXPECT: ok
#define BINS 256
kernel void histogram(global const uchar *data, uint n, global uint *hist)
{
    local uint bins[BINS];
    for (uint i = get_local_id(0); i < BINS; i += get_local_size(0))
        bins[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_local_id(0); i < BINS; i += get_local_size(0))
        atomic_add(&hist[i], bins[i]);
}
