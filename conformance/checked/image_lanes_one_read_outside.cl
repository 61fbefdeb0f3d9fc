// @check bounds
// @run k g=16 l=16 : image2d(16,16) buf(256)
// The lanes read four work-items' texels in one call, each lane checked:
// only work-item 13 (lane 1 of its step) reads outside the image.
kernel void k(read_only image2d_t im, global float4 *out)
{
    int x = get_global_id(0);
    out[x] = read_imagef(im, (int2)(x == 13 ? 16 : x, 0)); //! invalid-read
}
