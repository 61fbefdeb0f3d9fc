// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global uint *out)
{
    size_t g = get_global_id(0) + get_global_size(1) + get_local_id(2) + get_local_size(0)
             + get_group_id(1) + get_num_groups(0) + get_global_offset(0);
    out[0] = get_work_dim() + (uint)g;
}
