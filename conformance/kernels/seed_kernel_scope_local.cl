// @buf in int 512 iota
// @buf out int 512 zero
// @run rev g=512 l=128 : in out
// @check out local_reverse128
kernel void rev(global const int *in, global int *out) {
    local int t[128];
    local int bias;
    int l = get_local_id(0);
    if (l == 0) bias = 7;
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[127 - l] * 2 + bias;
}
