// @options -cl-std=CL2.0
// @buf out int 16 zero
// @run writer g=16 : int(3)
// @run reader g=16 : out
// @check out shared_array
global int shared[16];
kernel void writer(int k) { shared[get_global_id(0)] = (int)get_global_id(0) * k; }
kernel void reader(global int *out) { out[get_global_id(0)] = shared[15 - get_global_id(0)] + 1; }
