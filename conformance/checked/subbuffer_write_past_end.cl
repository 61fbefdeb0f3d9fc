// @check bounds
// @run k g=64 l=64 : sub(4096,1024,128)
kernel void k(global int *part)
{
    size_t i = get_global_id(0);
    part[i] = 5; //! invalid-write
}
