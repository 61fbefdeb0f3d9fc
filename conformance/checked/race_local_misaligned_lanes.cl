// @check races
// @run k g=8 l=8 : buf(32)
// @report a read by local linear id 0 at <source>:16:29
// @report kernel 'k', global id (1), local id (1), group id (0)
// Four-byte writes at 4 * l + 2 (misaligned: each covers half of two
// granules, so not the lanes' one test of four aligned cells); each
// work-item then reads a word two others' writes share. The report
// stands at the write and names its work-item (1, whose write work-item
// 0's read of bytes 8..12 meets first).
kernel void k(global int *out)
{
    local uint words[9];
    local uchar *bytes = (local uchar *)words;
    int l = get_local_id(0);
    *(local int *)(bytes + 4 * l + 2) = l; //! race
    out[get_global_id(0)] = words[l ^ 2];
}
