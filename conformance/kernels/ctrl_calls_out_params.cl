// @buf in int 256 rand
// @buf out int 512 zero
// @run k g=256 : in out
// @check out divmod7
void divmod(int a, int b, int *q, int *r) { *q = a / b; *r = a % b; }
int twice(int x) { if (x < 0) return -2 * x; return 2 * x; }
kernel void k(global const int *in, global int *out) {
    int i = get_global_id(0), q, r;
    divmod(in[i], 7, &q, &r);
    out[2 * i] = twice(q);
    out[2 * i + 1] = r;
}
