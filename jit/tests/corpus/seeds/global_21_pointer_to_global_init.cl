// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: a global pointer initialised with the address of another global
global int baz = 12;
// Pointers work. Also, initialization to a constant known at
// program load time
global int *global baz_ptr = &baz;
kernel void k(global int *out) { out[0] = *baz_ptr; }
