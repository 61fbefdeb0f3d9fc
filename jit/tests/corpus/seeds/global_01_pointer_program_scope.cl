// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: program-scope pointer to global
// declares a pointer p in the private address space that
// points to an object in address space global
global int *p;
kernel void k(global int *a) { p = a; }
