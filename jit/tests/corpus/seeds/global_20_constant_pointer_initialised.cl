// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: a constant pointer to global, initialised with the address of a global
global int baz = 12;
global int * constant ptr = &baz; // OK
kernel void k(global int *out) { out[0] = *ptr; }
