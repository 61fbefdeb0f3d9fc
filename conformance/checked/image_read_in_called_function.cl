// @check bounds
// @run k g=8 l=8 : image1d(8) buf(128)
float4 fetch(read_only image1d_t im, int i)
{
    return read_imagef(im, i); //! invalid-read
}

kernel void k(read_only image1d_t src, global float4 *out)
{
    int x = get_global_id(0);
    out[x] = fetch(src, 7 - 2 * x);
}
