// RUN: -cl-std=CL1.2
// EXPECT: ok
// local.txt: pointers to __local as function and kernel arguments
void fill(__local float *l, float v) { l[get_local_id(0)] = v; }
__kernel void k(__local float *scratch, __global float *out)
{
    fill(scratch, 1.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[0];
}
