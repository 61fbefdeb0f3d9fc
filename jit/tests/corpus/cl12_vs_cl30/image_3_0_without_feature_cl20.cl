// RUN: -cl-std=CL2.0
// EXPECT: ok
// images are optional in 3.0 (__opencl_c_images), core before (CL2.0: allowed)
kernel void k(read_only image2d_t img)
{
}
