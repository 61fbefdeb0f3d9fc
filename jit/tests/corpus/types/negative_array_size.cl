// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: negative
typedef char check[sizeof(int) == 8 ? 1 : -1];
kernel void k(void) { }
