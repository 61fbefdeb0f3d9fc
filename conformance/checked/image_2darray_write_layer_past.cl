// @check bounds
// @run k g=4,4 l=4,4 : image2darray(4,4,2)
kernel void k(write_only image2d_array_t out)
{
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(out, (int4)(x, y, 2, 0), (float4)(1.0f)); //! invalid-write
}
