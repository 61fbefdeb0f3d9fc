// @options -cl-std=CL3.0
// @buf out long 4 zero
// @run bump g=256 l=32 : int(1)
// @run bump g=256 l=64 : int(2)
// @run read g=1 : out
// @check out program_scope_atomics
// Program-scope atomic objects (OpenCL C 2.0+) initialised with
// ATOMIC_VAR_INIT and ATOMIC_FLAG_INIT persist between launches.
global atomic_int counter = ATOMIC_VAR_INIT(100);
global atomic_long big = ATOMIC_VAR_INIT(1L << 40);
global atomic_flag once = ATOMIC_FLAG_INIT;
global atomic_int first;
kernel void bump(int by) {
    atomic_fetch_add_explicit(&counter, by, memory_order_acq_rel, memory_scope_all_devices);
    atomic_fetch_sub(&big, (long)by);
    if (!atomic_flag_test_and_set_explicit(&once, memory_order_seq_cst, memory_scope_device))
        atomic_fetch_add_explicit(&first, 1, memory_order_relaxed, memory_scope_work_group);
}
kernel void read(global long *out) {
    out[0] = atomic_load(&counter);
    out[1] = atomic_load_explicit(&big, memory_order_acquire);
    out[2] = atomic_load(&first);
    out[3] = atomic_flag_test_and_set(&once);
}
