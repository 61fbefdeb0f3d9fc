// @check bounds
// @run k g=1 l=1 : buf(64) int(16)
kernel void k(global int *out, int n)
{
    for (int j = 0; j <= n; j++)
        out[j] = j; //! invalid-write
}
