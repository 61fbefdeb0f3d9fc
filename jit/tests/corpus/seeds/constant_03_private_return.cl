// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 5: address space
// constant.txt: an address space on a return type is an error
private int f() { return 0; }
kernel void k(void) { }
