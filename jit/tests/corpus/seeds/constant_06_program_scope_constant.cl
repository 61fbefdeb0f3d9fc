// RUN: -cl-std=CL1.2
// EXPECT: ok
// constant.txt: program-scope variables in the constant address space, initialised
constant float coeffs[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
kernel void k(global float *out) { out[get_global_id(0)] = coeffs[get_global_id(0) & 3]; }
