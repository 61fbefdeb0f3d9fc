// @options -cl-std=CL2.0
// @buf in int 256 iota
// @buf out int 256 zero
// @run k g=256 l=64 : in out
// @check out ptr_spaces
constant int offsets[4] = {3, 1, 2, 0};
kernel void k(global const int *in, global int *out) {
    local int t[64];
    int l = get_local_id(0);
    local int *lp = t + l;
    *lp = l * 10;
    barrier(CLK_LOCAL_MEM_FENCE);
    global const int *gp = in + get_global_id(0);
    constant int *cp = offsets + (l % 4);
    int priv[4] = {5, 6, 7, 8};
    private int *pp = &priv[0] + *cp;
    out[get_global_id(0)] = *gp + lp[-(l > 0)] + *pp;
}
