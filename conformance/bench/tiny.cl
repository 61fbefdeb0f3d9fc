// The smallest useful launch: one work-item adds one to a counter.
kernel void tiny(global uint *counter)
{
    if (get_global_id(0) == 0)
        counter[0] += 1;
}
