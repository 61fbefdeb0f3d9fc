// @buf x float 4096 rand
// @buf y float 4096 rand
// @run saxpy g=4096 l=128 : float(2.5) x y
// @check y saxpy
kernel void saxpy(float alpha, global const float *x, global float *y) {
    size_t i = get_global_id(0);
    y[i] = alpha * x[i] + y[i];
}
