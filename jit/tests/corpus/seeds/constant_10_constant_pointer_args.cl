// RUN: -cl-std=CL1.2
// EXPECT: ok
// constant.txt: pointers to constant as function and kernel arguments
float dot3(constant float *a, constant float *b) { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2]; }
kernel void k(constant float *a, constant float *b, global float *out) { out[0] = dot3(a, b); }
