// @options -cl-std=CL2.0
// @buf out int 3 zero
// @run bump g=1 : int(5)
// @run bump g=1 : int(7)
// @run bump g=1 : int(-2)
// @run read g=1 : out
// @check out persisted_plain
// Program-scope variables keep their values from one launch to the next.
global int total = 100;
global int history[3];
global int n;
kernel void bump(int by) { total += by; history[n++] = total; }
kernel void read(global int *out) { out[0] = total; out[1] = history[0] + history[1] * 1000; out[2] = n; }
