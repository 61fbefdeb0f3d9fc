// @check bounds
// @run k g=1 l=1 : buf(64) buf(4)
// @report global id (0), local id (0), group id (0)
// The body raises the bound the condition reads from memory, so the
// range known before the loop does not hold: every access is tested, and
// the write of element 16 (one past the end) is reported.
kernel void k(global int *buf, global int *lim)
{
    lim[0] = 8;
    for (int k = 0; k < lim[0]; k++) {
        buf[k] = k; //! invalid-write
        lim[0] = 17;
    }
}
