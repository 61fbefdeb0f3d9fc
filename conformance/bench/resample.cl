// Bilinear resample of an RGBA8 (CL_UNORM_INT8) image to the size of the
// output through a sampler: normalized coordinates at each output pixel's
// centre, linear filter, clamp to edge; the output is a float4 image.
constant sampler_t bilinear =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

kernel void resample(read_only image2d_t src, write_only image2d_t dst)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    float2 s = (float2)((x + 0.5f) / get_global_size(0), (y + 0.5f) / get_global_size(1));
    write_imagef(dst, (int2)(x, y), read_imagef(src, bilinear, s));
}
