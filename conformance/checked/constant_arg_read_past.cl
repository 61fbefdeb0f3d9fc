// @check bounds
// @run k g=64 l=16 : buf(256) buf(20)
kernel void k(global float *out, constant float *filter)
{
    size_t i = get_global_id(0);
    out[i] = filter[i % 8]; //! invalid-read
}
