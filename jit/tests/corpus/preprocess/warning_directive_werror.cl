// RUN: -cl-std=CL1.2 -Werror
// EXPECT: error
// ERROR: 5: this kernel is slow
// -Werror turns the #warning into an error
#warning this kernel is slow
kernel void k(void) { }
