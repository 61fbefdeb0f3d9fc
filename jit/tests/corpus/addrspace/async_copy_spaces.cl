// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global const float *in, global float *out)
{
    local float buf[64];
    event_t e = async_work_group_copy(buf, in + get_group_id(0) * 64, 64, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = buf[get_local_id(0)] * 2.0f;
}
