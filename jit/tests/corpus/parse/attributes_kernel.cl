// RUN: -cl-std=CL1.2
// EXPECT: ok
__attribute__((reqd_work_group_size(16, 16, 1)))
kernel void a(global float *out) { out[0] = 1.0f; }
__kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(float4)))
void b(global float4 *out) { out[0] = (float4)(0.0f); }
kernel void c(global float *out) __attribute__((reqd_work_group_size(8, 1, 1)));
kernel void c(global float *out) { out[0] = 2.0f; }
