// @buf in int 300 rand(0,50)
// @buf out int 300 zero
// @run k g=300 : in out
// @check out goto_collatz
kernel void k(global const int *in, global int *out) {
    int i = get_global_id(0);
    int n = in[i] + 1, steps = 0;
again:
    if (n == 1) goto done;
    n = (n % 2) ? 3 * n + 1 : n / 2;
    steps++;
    goto again;
done:
    out[i] = steps;
}
