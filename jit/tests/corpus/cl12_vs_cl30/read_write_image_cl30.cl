// RUN: -cl-std=CL3.0
// EXPECT: ok
// read_write images: 2.0 core, 3.0 only with __opencl_c_read_write_images (CL3.0: allowed, the device advertises the feature)
kernel void k(read_write image2d_t img)
{
}
