// @check races,uninit
// @run k g=8 l=8 : buf(32)
// Local words written by four-byte stores at 4 * l, then (the second step
// of four work-items, at the same site) at 4 * l + 2: misaligned, each
// covering half of two granules, which the lanes' one test of four
// aligned cells must leave to the runtime. Two 2-byte stores fill the
// gaps; read after a barrier: every byte read was written, nothing races.
kernel void k(global int *out)
{
    local uint words[9];
    local uchar *bytes = (local uchar *)words;
    int l = get_local_id(0);
    *(local int *)(bytes + 4 * l + (l >= 4 ? 2 : 0)) = l;
    if (l == 0)
        *(local ushort *)(bytes + 16) = 0;
    if (l == 7)
        *(local ushort *)(bytes + 34) = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = words[l + 1];
}
