// RUN: -cl-std=CL1.2
// EXPECT: ok
#if __OPENCL_C_VERSION__ != 120 || CL_VERSION_1_0 != 100 || CL_VERSION_1_1 != 110 || CL_VERSION_1_2 != 120
#error "version macros"
#endif
#if !defined(__ENDIAN_LITTLE__) || !defined(__kernel_exec)
#error "device macros"
#endif
kernel void k(void) { }
