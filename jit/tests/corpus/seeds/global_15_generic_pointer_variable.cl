// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: program-scope pointer to generic
int *foo; // OK. foo is allocated in global address space.
// pointer to foo in generic address space
kernel void k(global int *a) { foo = a; *foo = 1; }
