// RUN: -cl-std=CL2.0
// EXPECT: ok
// work-group collective functions (OpenCL C 2.0 core)
kernel void scan_wg(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    out[i] = work_group_scan_inclusive_add(in[i]) + work_group_reduce_max(in[i]) * 0;
}
