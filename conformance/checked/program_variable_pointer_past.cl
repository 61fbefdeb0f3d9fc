// @check bounds
// @options -cl-std=CL2.0
// @run k g=16 l=16 : buf(64)
global int counts[4];
kernel void k(global int *out)
{
    int i = get_global_id(0);
    global int *p = counts;
    p[i + 4] = i; //! invalid-write
    out[i] = 1;
}
