// RUN: -cl-std=CL1.2 -D MODE=2
// EXPECT: ok
#ifndef MODE
#error "MODE must be given"
#endif
#if MODE == 1
#define OP(a, b) ((a) + (b))
#elif MODE == 2
#define OP(a, b) ((a) * (b))
#elif MODE == 3
#define OP(a, b) ((a) - (b))
#else
#error "unknown MODE"
#endif
kernel void k(global int *out) { out[0] = OP(3, 4); }
