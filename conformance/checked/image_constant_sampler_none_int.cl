// @check bounds
// @run k g=8,8 l=8,8 : image2d(8,8) buf(1024)
constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;

kernel void k(read_only image2d_t im, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * 8 + x] = read_imagef(im, s, (int2)(x - 1, y)); //! invalid-read
}
