// @check races
// @run k g=8 l=8 : buf(32)
// @report a read by local linear id 0 at <source>:16:29
// @report reported 8 times at this place
// Four-byte writes at 8 * l + 2: lanes an affine step of 8 bytes apart,
// each misaligned across two granules, so not the lanes' one test of
// four aligned cells (the first lane's alignment stands for all). Each
// work-item then reads the second granule its neighbour l ^ 1 wrote,
// with no barrier between: a race at every one of the eight.
kernel void k(global int *out)
{
    local uint words[17];
    local uchar *bytes = (local uchar *)words;
    int l = get_local_id(0);
    *(local int *)(bytes + 8 * l + 2) = l; //! race
    out[get_global_id(0)] = words[2 * (l ^ 1) + 1];
}
