// RUN: -cl-std=CL1.2
// EXPECT: ok
#define LONG_MACRO(a) \
    ((a) * 2 + \
     1)
kernel void k(global int *out) { out[0] = LONG_MACRO(3); }
