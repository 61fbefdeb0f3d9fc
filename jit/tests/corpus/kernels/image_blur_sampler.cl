// RUN: -cl-std=CL1.2
// EXPECT: ok
constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void blur(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 acc = (float4)(0.0f);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            acc += read_imagef(src, smp, p + (int2)(dx, dy));
    write_imagef(dst, p, acc / 9.0f);
}
