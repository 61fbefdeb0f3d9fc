// @buf in int 1024 rand
// @buf out int 1024 zero
// @run scan g=1024 l=256 : in out local(1024) local(1024)
// @check out group_inclusive_scan256
kernel void scan(global const int *in, global int *out, local int *a, local int *b) {
    size_t l = get_local_id(0), n = get_local_size(0);
    a[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t off = 1; off < n; off *= 2) {
        b[l] = l >= off ? a[l] + a[l - off] : a[l];
        barrier(CLK_LOCAL_MEM_FENCE);
        local int *t = a; a = b; b = t;
    }
    out[get_global_id(0)] = a[l];
}
