// @options -cl-std=CL2.0
// @buf in int 256 rand
// @buf out int 768 zero
// @run k g=256 l=64 : in out
// @check out generic_calls
int twice_plus(int *p, int k) { *p = *p * 2 + k; return *p; }
kernel void k(global int *in, global int *out) {
    local int t[64];
    int l = get_local_id(0), g = get_global_id(0);
    int priv = g;
    t[l] = l;
    out[3 * g] = twice_plus(&in[g], 1);
    out[3 * g + 1] = twice_plus(&t[l], 2);
    out[3 * g + 2] = twice_plus(&priv, 3);
}
