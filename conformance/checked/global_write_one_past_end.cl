// @check bounds
// @run k g=1024 l=64 : buf(4096)
kernel void k(global float *out)
{
    size_t i = get_global_id(0);
    out[i + 1] = 1.0f; //! invalid-write
}
