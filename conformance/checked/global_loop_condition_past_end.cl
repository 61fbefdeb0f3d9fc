// @check bounds
// @run k g=16 l=16 : buf(64) buf(8) int(2)
// A loop condition reading past the end of a buffer at the same address
// every time: its address is tested once before the loop, reported there,
// and the read gives 0 (the loop does not run).
kernel void k(global int *out, global const int *lim, int n)
{
    int s = 0;
    for (int k = 0; k < lim[n]; k++) //! invalid-read
        s += k;
    out[get_global_id(0)] = s;
}
