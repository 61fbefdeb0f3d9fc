// @buf a int 400 rand(-1000,1000)
// @buf b int 400 list(3,-3,7,-7,1,-1,100,13)
// @buf out int 800 zero
// @run k g=400 : a b out
// @check out divmod_signs
kernel void k(global const int *a, global const int *b, global int *out) {
    int i = get_global_id(0);
    out[2 * i] = a[i] / b[i];
    out[2 * i + 1] = a[i] % b[i];
}
