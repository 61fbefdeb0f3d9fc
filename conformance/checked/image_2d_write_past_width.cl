// @check bounds
// @run k g=16,16 l=8,8 : image2d(16,16)
kernel void k(write_only image2d_t out)
{
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(out, (int2)(x + 1, y), (float4)(1.0f)); //! invalid-write
}
