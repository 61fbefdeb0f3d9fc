// RUN: -cl-std=CL3.0
// EXPECT: ok
// images are optional in 3.0 (__opencl_c_images), core before (CL3.0: allowed, the device advertises the feature)
kernel void k(read_only image2d_t img)
{
}
