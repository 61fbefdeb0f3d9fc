// @check bounds
// @run k g=64 l=16 : buf(1000)
kernel void k(global float *out)
{
    size_t i = get_global_id(0);
    vstore4((float4)(1.0f), i, out); //! invalid-write
}
