kernel void reverse(global const int *in, global int *out, local int *tile)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[n - 1 - l] + (int)get_group_id(0) * 1000;
}
