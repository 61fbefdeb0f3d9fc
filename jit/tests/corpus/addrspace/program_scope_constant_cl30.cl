// RUN: -cl-std=CL3.0
// EXPECT: ok
constant float4 weights = (float4)(0.1f, 0.2f, 0.3f, 0.4f);
constant int sizes[] = { 1, 2, 4, 8 };
kernel void k(global float *out) { out[0] = dot(weights, (float4)(sizes[0], sizes[1], sizes[2], sizes[3])); }
