// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: work_group_barrier
// work_group_barrier is new in 2.0 (CL1.2: an error)
kernel void k(local int *l)
{
    l[0] = 1;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
}
