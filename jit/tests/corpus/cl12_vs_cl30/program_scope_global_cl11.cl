// RUN: -cl-std=CL1.1
// EXPECT: error
// ERROR: 5: address space
// program-scope global variables: 2.0 core, 3.0 only with __opencl_c_program_scope_global_variables (CL1.1: an error)
global float state;
kernel void k(global float *out) { out[0] = state; }
