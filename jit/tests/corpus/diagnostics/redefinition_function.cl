// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: redefinition
int f(void) { return 1; }
int f(void) { return 2; }
kernel void k(void) { }
