// @buf in uint 512 rand
// @buf out uint 512 zero
// @run scan g=256 l=256 : in out
// @check out exclusive_scan512
kernel void scan(global const uint *in, global uint *out) {
    local uint t[512];
    int l = get_local_id(0), n = 512;
    t[2 * l] = in[2 * l];
    t[2 * l + 1] = in[2 * l + 1];
    int off = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) { int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1; t[bi] += t[ai]; }
        off *= 2;
    }
    if (l == 0) t[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        off >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
            uint x = t[ai]; t[ai] = t[bi]; t[bi] += x;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[2 * l] = t[2 * l];
    out[2 * l + 1] = t[2 * l + 1];
}
