// @check bounds
// @run k g=1024 l=64 : buf(4096) buf(4096)
kernel void k(global float *out, global const float *in)
{
    size_t i = get_global_id(0);
    out[i] = in[i + 1] * 2.0f; //! invalid-read
}
