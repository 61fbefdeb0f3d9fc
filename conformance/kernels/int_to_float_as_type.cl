// @buf a int 256 rand(-100000,100000)
// @buf out uint 512 zero
// @run k g=256 : a out
// @check out itof_bits
kernel void k(global const int *a, global uint *out) {
    int i = get_global_id(0);
    float f = (float)a[i] * 0.5f;
    out[2 * i] = as_uint(f);
    out[2 * i + 1] = as_uint(convert_float(a[i]));
}
