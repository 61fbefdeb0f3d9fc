// RUN: -cl-std=CL2.0
// EXPECT: ok
kernel void k(global int *g, local int *l)
{
    l[get_local_id(0)] = g[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
    g[get_global_id(0)] = l[0];
}
