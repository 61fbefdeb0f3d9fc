// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 7: read_imagef
// reads through a sampler are for read_only images (a read_write image is read without one)
kernel void k(read_write image2d_t img, sampler_t s, global float4 *o)
{
    o[0] = read_imagef(img, s, (int2)(0, 0)) + read_imagef(img, (int2)(0, 0));
}
