// @check bounds
// @run k g=1024 l=64 : buf(4096)
// @report invalid write of 4 bytes at offset 4096 of global buffer argument 'out' (4096 bytes), just past its end
// @report global id (1023), local id (63), group id (15)
kernel void k(global float *out)
{
    size_t i = get_global_id(0);
    out[i + 1] = 1.0f; //! invalid-write
}
