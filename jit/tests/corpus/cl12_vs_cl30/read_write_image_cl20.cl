// RUN: -cl-std=CL2.0
// EXPECT: ok
// read_write images: 2.0 core, 3.0 only with __opencl_c_read_write_images (CL2.0: allowed)
kernel void k(read_write image2d_t img)
{
}
