// @check bounds
// @run k g=16 l=16 : image2d(16,16) sampler(none) buf(256)
kernel void k(read_only image2d_t im, sampler_t s, global float4 *out)
{
    int x = get_global_id(0);
    // CLK_ADDRESS_NONE: the programmer guarantees the coordinates are inside.
    out[x] = read_imagef(im, s, (float2)(x + 8.5f, 0.5f)); //! invalid-read
}
