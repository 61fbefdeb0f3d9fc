// RUN: -cl-std=CL2.0
// EXPECT: ok
global uint launches = 0;
global float running_mean[64];
kernel void accumulate(global const float *x)
{
    size_t i = get_global_id(0);
    running_mean[i % 64] = 0.9f * running_mean[i % 64] + 0.1f * x[i];
    if (i == 0) launches++;
}
