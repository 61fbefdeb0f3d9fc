// RUN: -cl-std=CL3.0
// REQUIRES: !__opencl_c_program_scope_global_variables
// EXPECT: error
// ERROR: 6: program scope
// without __opencl_c_program_scope_global_variables a 3.0 program-scope global is an error
global int counter;
kernel void k(void) { }
