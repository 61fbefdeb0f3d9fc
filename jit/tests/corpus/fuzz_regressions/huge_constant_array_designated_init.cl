// RUN: -cl-std=CL1.2
// EXPECT: ok
// Found by fuzzing: an initialised array of 2^45 elements made sema allocate a slot per element,
// and the failed allocation aborted the process (sema/init.rs). The size is legal C; the
// device limits apply when the program is built for a device, not in the front end.
constant int table[0x1fffffffffff] = { [2] = 1 };
kernel void k(global int *o) { o[0] = table[2]; }
