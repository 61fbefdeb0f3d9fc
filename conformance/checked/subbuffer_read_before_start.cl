// @check bounds
// @run k g=32 l=32 : sub(4096,1024,128) buf(128)
kernel void k(global const int *part, global int *out)
{
    int i = get_global_id(0);
    out[i] = part[i - 1]; //! invalid-read
}
