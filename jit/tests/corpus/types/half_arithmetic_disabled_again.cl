// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 8: half
// '#pragma OPENCL EXTENSION cl_khr_fp16 : disable' takes half values away again
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
kernel void k(global half *h) {
    half x = h[0];
}
