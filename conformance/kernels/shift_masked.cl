// @buf a int 256 randbits
// @buf s uint 256 rand(0,200)
// @buf out int 768 zero
// @run k g=256 : a s out
// @check out shifts32
kernel void k(global const int *a, global const uint *s, global int *out) {
    int i = get_global_id(0);
    out[3 * i] = a[i] << s[i];
    out[3 * i + 1] = a[i] >> s[i];
    out[3 * i + 2] = (int)((uint)a[i] >> s[i]);
}
