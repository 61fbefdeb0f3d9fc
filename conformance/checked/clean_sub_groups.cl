// @check all
// @options -cl-std=CL3.0
// @run k g=46 l=11 : buf(184) local(44)
// Sub-groups on different paths exchange values through local memory at
// sub-group barriers, between work-group barriers: no race, no divergence.
kernel void k(global int *o, local int *tmp)
{
    size_t i = get_global_id(0);
    uint lin = get_local_id(0);
    int v = (int)(i * 29 % 17) - 8;
    int acc = 0;
    for (int round = 0; round < 3; round++) {
        if (get_sub_group_id() % 2 == 0) {
            acc += sub_group_reduce_add(v + round);
        } else {
            tmp[lin] = v * 10 + round;
            sub_group_barrier(CLK_LOCAL_MEM_FENCE);
            uint mate = lin ^ 1;
            if (mate / 4 == lin / 4 && mate < get_local_size(0))
                acc += tmp[mate];
            sub_group_barrier(CLK_LOCAL_MEM_FENCE);
            acc += sub_group_scan_inclusive_max(v - round);
        }
        work_group_barrier(CLK_LOCAL_MEM_FENCE);
    }
    o[i] = acc;
}
