// @check races
// @run k g=16 l=16 : buf(64)
// @report times at this place in this command
// (Each of the two reports is merged from several work-items: 8 and 8 in
// most runs, 9 and 7 in about one run in four of the whole test file, since
// b998969 at least; which report a work-item's race goes to is not yet
// explained, so the split is not asserted.)
// Compound assignments at gathered places (a permutation within each four
// work-items), each adding the word its partner (l ^ 1) writes:
// the write of one races with the other's read in the same interval. The
// compound assignment's read stores its write's tags before the
// right-hand side is read, so the partner's read must find them.
kernel void k(global int *out)
{
    local int tile[16];
    local int *t = tile;
    int l = get_local_id(0);
    tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int p = l ^ 1;
    int w = (l & ~3) + ((l & 3) * 3) % 4;
    int r = (p & ~3) + ((p & 3) * 3) % 4;
    t[w] += t[r]; //! race
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[l];
}
