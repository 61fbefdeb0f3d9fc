// RUN: -cl-std=CL1.2
// EXPECT: ok
#define V 1
#undef V
#define V 2
#if V != 2
#error "undef failed"
#endif
kernel void k(global int *out) { out[0] = V; }
