// @options -cl-std=CL3.0
// @buf a double 512 rand
// @buf out double 256 zero
// @run k g=128 : a out
// @check out double2_dot
kernel void k(global const double2 *a, global double2 *out) {
    int i = get_global_id(0);
    double2 v = a[2 * i], w = a[2 * i + 1];
    out[i] = (double2)(v.x * w.x + v.y * w.y, v.x - w.y);
}
