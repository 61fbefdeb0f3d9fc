// @check bounds
// @run k g=4 l=4 : image2d(4,4) sampler(clamp_to_edge,norm) buf(64)
kernel void k(read_only image2d_t im, sampler_t s, global float4 *out)
{
    int x = get_global_id(0);
    float u = x / (float)(x & 2); // 0/0 is NaN, 1/0 is INF
    // Whatever the addressing, INF and NaN coordinates are undefined.
    out[x] = read_imagef(im, s, (float2)(u, 0.5f)); //! invalid-read
}
