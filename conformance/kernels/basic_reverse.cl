// @buf in int 777 iota
// @buf out int 777 zero
// @run rev g=777 : in out int(777)
// @check out reverse
kernel void rev(global const int *in, global int *out, int n) {
    int i = get_global_id(0);
    out[n - 1 - i] = in[i];
}
