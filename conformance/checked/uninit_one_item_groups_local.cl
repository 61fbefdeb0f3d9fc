// @check uninit
// @run k g=4096 l=1 : buf(16384)
// Groups of one work-item run many to a call: each group's local memory
// is uninitialised again, so an odd group's read of the local word its
// even neighbour wrote (in the same run, on the same arena) is reported.
kernel void k(global int *out)
{
    local int t[1];
    size_t i = get_global_id(0);
    if (i % 2 == 0)
        t[0] = 1;
    out[i] = i % 2 ? t[0] : 0; //! uninit
}
