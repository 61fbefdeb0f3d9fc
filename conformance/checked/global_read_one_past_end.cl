// @check bounds
// @run k g=1024 l=64 : buf(4096) buf(4096)
// @report invalid read of 4 bytes at offset 4096 of global buffer argument 'in' (4096 bytes), just past its end
// @report global id (1023), local id (63), group id (15)
kernel void k(global float *out, global const float *in)
{
    size_t i = get_global_id(0);
    out[i] = in[i + 1] * 2.0f; //! invalid-read
}
