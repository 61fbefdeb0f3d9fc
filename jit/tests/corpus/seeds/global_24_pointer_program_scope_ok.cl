// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: the known inconsistency (README of the seeds): follow the spec and clang, it compiles
global int *bad_ptr; // the page calls this an error; OpenCL C 3.0 and clang accept it
kernel void k(global int *a) { bad_ptr = a; }
