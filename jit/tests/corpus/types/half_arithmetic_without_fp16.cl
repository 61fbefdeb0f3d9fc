// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: half
// half values (not pointers) need cl_khr_fp16
kernel void k(global float *out)
{
    half h;
    out[0] = 0.0f;
}
