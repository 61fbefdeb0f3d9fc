// A buffer of 16 MiB (its shadow, four times as large, comes in huge
// pages): groups race on its last elements.
// @check races
// @run k g=64 l=16 : buf(16777216)
kernel void k(global int *out)
{
    int l = get_local_id(0);
    out[4194303 - l] = get_global_id(0); //! race
}
