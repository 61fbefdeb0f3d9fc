// @check races
// @run k g=16 l=16 : buf(64)
// @report a read by local linear id 1 at <source>:27:13
// @report reported 16 times at this place in this command
// (One report for the sixteen work-items, each write racing with its
// partner's read of the right-hand side. A compound assignment's read is
// recorded by its write, not as a read, on the generated fast path and in
// the runtime alike: before, the runtime recorded it as a read, so a
// work-item whose read took the slow path (which depends on what the thread
// ran before) was reported apart, "a read by several work-items", and the
// split between the two reports changed from run to run.)
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
