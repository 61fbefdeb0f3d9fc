// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: image2d_t
kernel void k(read_only image2d_t img)
{
    local image2d_t copy;
}
