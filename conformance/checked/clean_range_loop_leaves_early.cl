// @check bounds
// @run k g=16 l=16 : buf(64) buf(64) int(1000)
// Loops whose ranges reach outside `a` (a bound far past its end, a counter
// starting before it) but whose accesses stay inside: the range test before
// each loop fails, its checked copy runs, and nothing is reported.
kernel void k(global int *out, global const int *a, int n)
{
    int i = get_global_id(0);
    int s = 0;
    for (int k = i; k < n; k++) {
        if (k >= 16)
            break;
        s += a[k];
    }
    for (int k = i - 1; k < i + 1; k++)
        if (k >= 0)
            s += a[k];
    out[i] = s;
}
