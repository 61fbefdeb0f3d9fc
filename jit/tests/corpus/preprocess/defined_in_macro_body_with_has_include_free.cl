// RUN: -cl-std=CL1.2
// EXPECT: ok
#define FEATURE_A 1
#define FEATURE_B 0
#define BOTH (FEATURE_A && FEATURE_B)
#if BOTH
#error "BOTH is 0"
#elif FEATURE_A
kernel void k(void) { }
#endif
