// @options -cl-std=CL2.0
// @buf in int 256 rand
// @buf out int 256 zero
// @run k g=256 l=32 : in out
// @check out generic_choice
kernel void k(global int *in, global int *out) {
    local int t[32];
    int l = get_local_id(0), g = get_global_id(0);
    t[l] = 1000 + l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int *p;
    if (g % 2)
        p = &in[g];
    else
        p = &t[l];
    out[g] = *p;
}
