// RUN: -cl-std=CL2.0
// EXPECT: ok
// work_group_barrier is new in 2.0 (CL2.0: allowed)
kernel void k(local int *l)
{
    l[0] = 1;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
}
