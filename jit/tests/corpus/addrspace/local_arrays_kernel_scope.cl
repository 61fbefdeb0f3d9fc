// RUN: -cl-std=CL3.0
// EXPECT: ok
// multi-dimensional __local arrays at kernel scope (a transpose tile)
#define TILE 16
kernel void k(global const float *in, global float *out)
{
    local float tile[TILE][TILE + 1];
    local int flags[TILE];
    size_t x = get_local_id(0), y = get_local_id(1);
    tile[y][x] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];
    flags[x] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0) * get_global_size(1) + get_global_id(1)] = tile[x][y] * flags[y];
}
