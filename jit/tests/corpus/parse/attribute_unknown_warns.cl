// RUN: -cl-std=CL1.2
// EXPECT: ok
// WARNING: 4: frobnicate
kernel void k(global int *out) __attribute__((frobnicate));
kernel void k(global int *out) { out[0] = 0; }
