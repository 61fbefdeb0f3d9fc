// RUN: -cl-std=CL3.0
// REQUIRES: __opencl_c_generic_address_space, __opencl_c_program_scope_global_variables, __opencl_c_int64
// EXPECT: ok
// advertised OpenCL C 3.0 features are predefined macros
#if !defined(__opencl_c_generic_address_space) || !defined(__opencl_c_program_scope_global_variables)
#error "advertised features must be predefined"
#endif
#ifndef __opencl_c_int64
#error "__opencl_c_int64 is advertised"
#endif
kernel void k(void) { }
