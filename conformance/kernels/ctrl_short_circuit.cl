// @buf a int 200 rand(-5,5)
// @buf out int 400 zero
// @run k g=200 : a out
// @check out short_circuit
int bump(int *c, int v) { (*c)++; return v; }
kernel void k(global const int *a, global int *out) {
    int i = get_global_id(0), calls = 0;
    int x = a[i];
    int r = (x > 0 && bump(&calls, x > 2)) || (x < -3 && bump(&calls, 1)) || bump(&calls, 0);
    out[2 * i] = r;
    out[2 * i + 1] = calls;
}
