// @buf a float 1024 rand
// @buf b float 1024 rand
// @buf c float 1024 zero
// @run vadd g=1024 l=64 : a b c
// @check c vadd_f
kernel void vadd(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
