// @check races
// @options -cl-std=CL3.0
// @run k g=256 l=64 : buf(64) buf(64) buf(64) buf(4)
// Message passing between work-groups with a relaxed flag: nothing orders
// the message's write before the last group's read (with release and
// acquire it would be ordered: conformance/kernels/atomics_message_passing.cl
// runs that under checked mode with no report).
kernel void k(global int *data, global atomic_int *flag, global int *seen,
              global atomic_int *ticket)
{
    size_t g = get_group_id(0), n = get_num_groups(0);
    if (get_local_id(0) != 0)
        return;
    data[g] = (int)(g * 3 + 7); //! race
    atomic_store_explicit(&flag[g], 1, memory_order_relaxed, memory_scope_device);
    if (atomic_fetch_add_explicit(ticket, 1, memory_order_relaxed, memory_scope_device) != (int)n - 1)
        return;
    for (size_t h = 0; h < n; h++) {
        while (atomic_load_explicit(&flag[h], memory_order_relaxed, memory_scope_device) == 0)
            ;
        seen[h] = data[h]; //! race-other
    }
}
