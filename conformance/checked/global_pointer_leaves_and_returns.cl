// @check bounds
// @run k g=64 l=64 : buf(256) int(64)
kernel void k(global int *out, int n)
{
    size_t i = get_global_id(0);
    global int *p = out + 1000;   /* leaves the buffer: legal while unused */
    p -= 1000;                    /* and comes back */
    p[i] = 1;
    if (i == 0)
        p[n] = 2; //! invalid-write
}
