// @check bounds
// @run k g=16,16 l=8,8 : buf(1024)
kernel void k(global int *img)
{
    int x = get_global_id(0), y = get_global_id(1);
    img[y * 17 + x] = x + y; //! invalid-write
}
