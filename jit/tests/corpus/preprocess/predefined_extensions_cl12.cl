// RUN: -cl-std=CL1.2
// REQUIRES: cl_khr_fp64, cl_khr_global_int32_base_atomics
// EXPECT: ok
// advertised extensions are predefined macros
#if !defined(cl_khr_fp64) || !defined(cl_khr_global_int32_base_atomics)
#error "advertised extensions must be predefined"
#endif
kernel void k(void) { }
