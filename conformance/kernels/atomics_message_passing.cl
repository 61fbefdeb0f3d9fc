// @options -cl-std=CL3.0
// @buf data int 256 zero
// @buf flag int 256 zero
// @buf seen int 256 zero
// @buf ticket int 1 zero
// @run mp g=16384 l=64 : data flag seen ticket
// @check seen message_passing
// Work-group g writes its message data[g] with plain stores, then publishes
// it with a release store of flag[g]; the last group to take a ticket
// acquires every flag and copies every message: each must be the one written
// before its release.
kernel void mp(global int *data, global atomic_int *flag, global int *seen,
               global atomic_int *ticket) {
    size_t g = get_group_id(0), n = get_num_groups(0);
    if (get_local_id(0) != 0)
        return;
    data[g] = (int)(g * 3 + 7);
    atomic_store_explicit(&flag[g], 1, memory_order_release, memory_scope_device);
    if (atomic_fetch_add_explicit(ticket, 1, memory_order_relaxed, memory_scope_device) != (int)n - 1)
        return;
    for (size_t h = 0; h < n; h++) {
        while (atomic_load_explicit(&flag[h], memory_order_acquire, memory_scope_device) == 0)
            ;
        seen[h] = data[h];
    }
}
