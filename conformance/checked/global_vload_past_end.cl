// @check bounds
// @run k g=64 l=16 : buf(1024) buf(1024)
kernel void k(global float4 *out, global const float *in)
{
    size_t i = get_global_id(0);
    out[i] = vload4(i + 1, in); //! invalid-read
}
