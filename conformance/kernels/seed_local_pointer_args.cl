// @buf in int 512 iota
// @buf out int 512 zero
// @run rev g=512 l=64 : in out local(256) local(4)
// @check out local_reverse64
kernel void rev(global const int *in, global int *out, local int *t, local int *flag) {
    int l = get_local_id(0), n = get_local_size(0);
    if (l == 0) *flag = 1000;
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[n - 1 - l] + *flag;
}
