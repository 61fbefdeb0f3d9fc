// RUN: -cl-std=CL3.0
// REQUIRES: !__opencl_c_generic_address_space, !cl_khr_fp64
// EXPECT: ok
#if __OPENCL_C_VERSION__ != 300 || CL_VERSION_2_0 != 200 || CL_VERSION_3_0 != 300
#error "version macros"
#endif
#ifdef __opencl_c_generic_address_space
#error "the device does not advertise the generic address space"
#endif
#ifdef cl_khr_fp64
#error "the device does not advertise fp64"
#endif
kernel void k(void) { }
