// RUN: -cl-std=CL1.2
// EXPECT: ok
__kernel_exec(64, float4) void k(global float4 *out) { out[get_global_id(0)] = (float4)(1.0f); }
