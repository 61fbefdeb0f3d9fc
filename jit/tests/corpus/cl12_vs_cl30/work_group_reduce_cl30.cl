// RUN: -cl-std=CL3.0
// EXPECT: ok
// work-group collectives: 2.0 core, 3.0 only with __opencl_c_work_group_collective_functions (advertised)
kernel void k(global int *out)
{
    out[get_global_id(0)] = work_group_reduce_add(1);
}
