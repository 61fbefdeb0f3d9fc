// RUN: -cl-std=CL1.2
// EXPECT: ok
constant sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
kernel void k(read_only image2d_t in, write_only image2d_t out)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 c = read_imagef(in, s, (float2)(p.x, p.y) / (float2)(get_image_width(in), get_image_height(in)));
    write_imagef(out, p, c);
}
