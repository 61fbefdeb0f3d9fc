// @check bounds
// @options -cl-std=CL2.0
// @run k g=16 l=16 : buf(64)
global int counts[8];
kernel void k(global int *out)
{
    int i = get_global_id(0);
    counts[i] = i; //! index
    out[i] = 1;
}
