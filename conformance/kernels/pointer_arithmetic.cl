// @buf in int 512 iota
// @buf out int 256 zero
// @run k g=256 : in out
// @check out ptr_arith
kernel void k(global const int *in, global int *out) {
    int i = get_global_id(0);
    global const int *p = in + 2 * i;
    global const int *q = &in[511] - i;
    int priv[4] = {1, 2, 3, 4};
    int *pp = priv + 3;
    out[i] = *p + *(p + 1) - *q + (int)(q - p) + *pp - pp[-2];
}
