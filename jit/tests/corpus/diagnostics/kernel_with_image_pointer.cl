// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: image2d_t
kernel void k(global image2d_t *imgs)
{
}
