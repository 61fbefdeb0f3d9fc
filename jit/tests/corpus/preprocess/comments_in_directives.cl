// RUN: -cl-std=CL1.2
// EXPECT: ok
#define X /* comment */ 4 // trailing
#if X /* still 4 */ == 4
kernel void k(global int *out) { out[0] = X; }
#endif
