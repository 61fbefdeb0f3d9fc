// @buf a float 1024 rand(-1000,1000)
// @buf c int 2048 zero
// @run k g=256 : a c
// @check c v_convert_as
kernel void k(global const float4 *a, global int4 *c) {
    int i = get_global_id(0);
    c[2 * i] = convert_int4(a[i]);
    c[2 * i + 1] = as_int4(convert_float4(convert_int4(a[i])));
}
