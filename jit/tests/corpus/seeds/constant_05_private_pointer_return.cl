// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 5: address space
// constant.txt: the pointer itself qualified with private on a return type is an error
local int * private f(local int *p) { return p; };
kernel void k(void) { }
