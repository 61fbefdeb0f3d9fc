// @buf a ulong 256 randbits
// @buf s uint 256 rand(0,300)
// @buf out ulong 512 zero
// @run k g=256 : a s out
// @check out ulong_shifts
kernel void k(global const ulong *a, global const uint *s, global ulong *out) {
    int i = get_global_id(0);
    out[2 * i] = a[i] << s[i];
    out[2 * i + 1] = a[i] >> s[i];
}
