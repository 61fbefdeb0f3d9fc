// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 5: read_write
// read_write images: 2.0 core, 3.0 only with __opencl_c_read_write_images (CL3.0: an error)
kernel void k(read_write image2d_t img)
{
}
