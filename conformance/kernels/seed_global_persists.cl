// @options -cl-std=CL2.0
// @buf out int 4 zero
// @run bump g=64 : int(1)
// @run bump g=64 : int(2)
// @run read g=1 : out
// @check out persisted
global int counter;
global int calls = 10;
kernel void bump(int by) {
    atomic_add(&counter, by);
    if (get_global_id(0) == 0) calls++;
}
kernel void read(global int *out) { out[0] = counter; out[1] = calls; }
