// @check bounds
// @run k g=64 l=16 : buf(1024)
kernel void k(global float4 *out)
{
    size_t i = get_global_id(0);
    out[i + 1] = (float4)(1.0f, 2.0f, 3.0f, 4.0f); //! invalid-write
}
