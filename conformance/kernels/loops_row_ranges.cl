// @buf a int 1024 rand(0,1000)
// @buf ptr uint 65 list(0,0,7,8,16,18,27,30,40,44,55,60,72,78,78,85,86,94,96,105,108,118,122,133,138,150,156,156,163,164,172,174,183,186,196,200,211,216,228,234,234,241,242,250,252,261,264,274,278,289,294,306,312,312,319,320,328,330,339,342,352,356,367,372,384)
// @buf out int 64 zero
// @buf csr int 64 zero
// @run row_ranges g=64 l=16 : a ptr out csr
// @check out row_ranges
// @check csr csr_rows
// Loops over ranges of an array that differ per work-item: windows of
// varying length (the last ones clipped at the array's end), a counter
// starting before the array with guarded accesses, a loop whose bound lies
// far past the end but which leaves early, and CSR rows whose bounds are
// read from memory. Checked `bounds` tests such loops' accesses together
// before each loop: the results must not change.
kernel void row_ranges(global const int *a, global const uint *ptr, global int *out,
                       global int *csr)
{
    int i = get_global_id(0);
    int lo = i * 16 - i % 3, hi = i * 16 + 16 + i % 5;
    if (hi > 1024)
        hi = 1024;
    int s = 0;
    for (int k = lo; k < hi; k++)
        s += a[k] * (k - lo + 1);
    for (int k = lo - 2; k < lo + 2; k++)
        if (k >= 0)
            s += a[k];
    for (int k = lo; k < 1 << 20; k++) {
        if (k >= lo + 3)
            break;
        s -= a[k];
    }
    out[i] = s;
    int t = 0;
    for (uint k = ptr[i]; k < ptr[i + 1]; k++)
        t += a[k] ^ (int)k;
    csr[i] = t;
}
