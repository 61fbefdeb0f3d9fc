// @buf in float 1024 rand
// @buf out float 1024 zero
// @run st g=1024 l=128 : in out
// @check out stencil3 tol=1e-6
kernel void st(global const float *in, global float *out) {
    local float t[130];
    int g = get_global_id(0), l = get_local_id(0), n = get_global_size(0);
    t[l + 1] = in[g];
    if (l == 0) t[0] = g > 0 ? in[g - 1] : 0.0f;
    if (l == get_local_size(0) - 1) t[l + 2] = g + 1 < n ? in[g + 1] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = (t[l] + t[l + 1] + t[l + 2]) / 3.0f;
}
