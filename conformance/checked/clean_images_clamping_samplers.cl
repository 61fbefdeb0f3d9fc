// @check all
// @options -cl-std=CL3.0
// @run k g=8,8 l=4,4 : image2d(8,8) image1darray(8,2) sampler(clamp_to_edge,norm,linear) image2d(8,8,wo) buf(1024)
// Out-of-range coordinates that a clamping sampler defines, a layer past
// the end read with a sampler (clamped), reads and writes inside images:
// nothing is reported.
constant sampler_t clamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
constant sampler_t wrap = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

kernel void k(read_only image2d_t im, read_only image1d_array_t arr, sampler_t edge,
              write_only image2d_t dst, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    float4 a = read_imagef(im, clamp, (int2)(x - 4, y + 4));
    float4 b = read_imagef(im, edge, (float2)(x * 0.5f - 1.0f, 2.0f));
    float4 c = read_imagef(arr, clamp, (int2)(x + 8, 7));
    float4 d = read_imagef(im, wrap, (float2)(x * 0.75f - 3.0f, y + 0.25f));
    write_imagef(dst, (int2)(x, y), a + b + c + d);
    out[y * 8 + x] = read_imagef(im, (int2)(x, y)) + read_imagef(arr, (int2)(7 - x, 1));
}
