// RUN: -cl-std=CL1.2
// EXPECT: ok
// images are optional in 3.0 (__opencl_c_images), core before (CL1.2: allowed)
kernel void k(read_only image2d_t img)
{
}
