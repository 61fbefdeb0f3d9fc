// RUN: -cl-std=CL1.2
// EXPECT: ok
// a sampler at program scope in constant (1.2, images are core)
constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
kernel void k(read_only image2d_t img, global float4 *out)
{
    out[0] = read_imagef(img, smp, (int2)(0, 0));
}
