// RUN: -cl-std=CL1.2
// EXPECT: ok
#define A 10
#define B 3
#if (A * B + 2) / 4 == 8 && (A % B) == 1 && (-1 < 0) && (~0 == -1) && ((1 << 4) | 1) == 17
kernel void k(global int *out) { out[0] = 1; }
#else
#error "arithmetic in #if is wrong"
#endif
