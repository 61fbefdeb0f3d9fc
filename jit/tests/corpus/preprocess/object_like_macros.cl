// RUN: -cl-std=CL1.2
// EXPECT: ok
#define N 64
#define SCALE 2.5f
#define EMPTY
kernel void k(global float *out) { EMPTY out[get_global_id(0) % N] = SCALE; }
