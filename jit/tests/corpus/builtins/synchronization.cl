// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *g, local int *l)
{
    l[get_local_id(0)] = g[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    g[get_global_id(0)] = l[0];
}
