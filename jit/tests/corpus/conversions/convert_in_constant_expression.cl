// RUN: -cl-std=CL1.2
// EXPECT: ok
// casts are allowed in constant initialisers
constant float scale = (float)(1 << 4) / 3;
constant int rounded = (int)2.75f;
kernel void k(global float *out) { out[0] = scale + rounded; }
