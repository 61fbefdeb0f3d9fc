// @check bounds
// @run k g=8 l=8 : image1darray(8,4) buf(128)
kernel void k(read_only image1d_array_t im, global float4 *out)
{
    int x = get_global_id(0);
    // Without a sampler the layer must name one of the 4 layers.
    out[x] = read_imagef(im, (int2)(x, 4)); //! invalid-read
}
