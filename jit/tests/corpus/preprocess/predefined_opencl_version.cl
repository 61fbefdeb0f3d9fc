// RUN: -cl-std=CL1.2
// EXPECT: ok
// CLANG: skip clang-14 does not define __OPENCL_VERSION__ for the spir target; the spec requires it
#if !defined(__OPENCL_VERSION__) || __OPENCL_VERSION__ < 120
#error "__OPENCL_VERSION__ names the device's OpenCL version"
#endif
kernel void k(void) { }
