// @check bounds
// @run k g=16 l=16 : buf(64) buf(64) int(4) int(5)
// A loop over `a[k]` with a bound computed before it: its whole range is
// tested before the loop (silently); work-items 3 to 15 read past the end of
// `a`'s 16 ints, the loop's checked copy runs for them and reports the read.
kernel void k(global int *out, global const int *a, int m, int n)
{
    int i = get_global_id(0);
    int s = 0;
    for (int k = i * m; k < i * m + n; k++)
        s += a[k]; //! invalid-read
    out[i] = s;
}
