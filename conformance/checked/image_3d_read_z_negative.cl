// @check bounds
// @run k g=4,4 l=4,4 : image3d(4,4,4) buf(256)
kernel void k(read_only image3d_t im, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * 4 + x] = read_imagef(im, (int4)(x, y, y - 1, 0)); //! invalid-read
}
