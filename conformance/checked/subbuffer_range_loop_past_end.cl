// @check bounds
// @run k g=4 l=4 : buf(64) sub(4096,1024,64) int(20)
// A loop's range tested before it against the sub-buffer's own bounds: 20
// ints from a sub-buffer of 16 stay inside its parent but not inside it.
kernel void k(global int *out, global const int *a, int n)
{
    int i = get_global_id(0);
    int s = 0;
    for (int k = 0; k < n; k++)
        s += a[k]; //! invalid-read
    out[i] = s;
}
