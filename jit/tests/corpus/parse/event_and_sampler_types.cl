// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *g, read_only image2d_t img, sampler_t s)
{
    local float buf[8];
    event_t e = async_work_group_copy(buf, g, 8, 0);
    wait_group_events(1, &e);
    g[1] = buf[0] + read_imagef(img, s, (float2)(0.5f, 0.5f)).x;
}
