// @check bounds
// @run k g=64 l=16 : buf(256) local(64)
kernel void k(global int *out, local int *scratch)
{
    int l = get_local_id(0);
    scratch[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[l + 16]; //! invalid-read
}
