// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float4 *in, global float4 *out)
{
    local float4 tile[64];
    event_t e = async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
    e = async_work_group_strided_copy(tile, in, 32, 2, e);
    wait_group_events(1, &e);
    prefetch(in, 64);
    event_t back = async_work_group_copy(out + get_group_id(0) * 64, tile, 64, 0);
    wait_group_events(1, &back);
}
