// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 5: image2d_t
// images are optional in 3.0 (__opencl_c_images), core before (CL3.0: an error)
kernel void k(read_only image2d_t img)
{
}
