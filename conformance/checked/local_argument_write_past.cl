// @check bounds
// @run k g=64 l=16 : buf(256) local(60)
kernel void k(global int *out, local int *scratch)
{
    int l = get_local_id(0);
    scratch[l] = l; //! invalid-write
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = 0;
}
