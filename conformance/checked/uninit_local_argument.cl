// @check uninit
// @run k g=32 l=16 : buf(128) local(64)
kernel void k(global int *out, local int *s)
{
    int l = get_local_id(0);
    if ((l & 1) == 0)
        s[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[l ^ 1]; //! uninit
}
