// RUN: -cl-std=CL1.2
// EXPECT: ok
#pragma some_vendor thing
kernel void k(void) { }
