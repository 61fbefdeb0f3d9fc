// RUN: -cl-std=CL2.0
// EXPECT: ok
// constant.txt: program-scope pointer to global (2.0: program-scope variables are global)
// declares a pointer p in the private address space that
// points to an object in address space global
global int *p;
kernel void k(void) { }
