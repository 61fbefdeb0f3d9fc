// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct { float sum; int count; } acc_t;
kernel void k(global float *out)
{
    local acc_t acc;
    if (get_local_id(0) == 0) { acc.sum = 0.0f; acc.count = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_group_id(0)] = acc.sum / (acc.count + 1);
}
