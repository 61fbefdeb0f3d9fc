// RUN: -cl-std=CL1.2
// EXPECT: ok
#define N 256
kernel void bitonic_local(global float *data)
{
    local float buf[N];
    uint lid = get_local_id(0);
    buf[lid] = data[get_group_id(0) * N + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint size = 2; size <= N; size <<= 1) {
        for (uint stride = size >> 1; stride > 0; stride >>= 1) {
            uint partner = lid ^ stride;
            if (partner > lid) {
                bool up = (lid & size) == 0;
                float a = buf[lid], b = buf[partner];
                if ((a > b) == up) { buf[lid] = b; buf[partner] = a; }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    data[get_group_id(0) * N + lid] = buf[lid];
}
