// @buf a int 1000 rand
// @buf b int 1000 rand
// @buf c int 1000 zero
// @run vadd g=1000 : a b c
// @check c vadd_i
kernel void vadd(global const int *a, global const int *b, global int *c) {
    int i = get_global_id(0);
    c[i] = a[i] + b[i];
}
