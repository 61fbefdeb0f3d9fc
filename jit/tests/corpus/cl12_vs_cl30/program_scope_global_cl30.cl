// RUN: -cl-std=CL3.0
// REQUIRES: !__opencl_c_program_scope_global_variables
// EXPECT: error
// ERROR: 6: address space
// program-scope global variables: 2.0 core, 3.0 only with __opencl_c_program_scope_global_variables (CL3.0: an error)
global float state;
kernel void k(global float *out) { out[0] = state; }
