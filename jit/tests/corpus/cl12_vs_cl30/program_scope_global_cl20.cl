// RUN: -cl-std=CL2.0
// EXPECT: ok
// program-scope global variables: 2.0 core, 3.0 only with __opencl_c_program_scope_global_variables (CL2.0: allowed)
global float state;
kernel void k(global float *out) { out[0] = state; }
