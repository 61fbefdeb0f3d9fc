// @check bounds
// @run k g=16 l=16 : image2d(16,16)
// The lanes write four work-items' texels in one call, each lane checked:
// only work-item 6 (lane 2 of its step) writes outside the image.
kernel void k(write_only image2d_t out)
{
    int x = get_global_id(0);
    write_imagef(out, (int2)(x, x == 6 ? -1 : 0), (float4)(0.5f)); //! invalid-write
}
