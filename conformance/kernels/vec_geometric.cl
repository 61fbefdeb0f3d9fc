// @buf a float 1024 rand
// @buf c float 1024 zero
// @run k g=256 : a c
// @check c v_geometric tol=1e-5
kernel void k(global const float4 *a, global float *c) {
    int i = get_global_id(0);
    float4 v = a[i], w = a[(i + 1) % 256];
    c[4 * i] = dot(v, w);
    c[4 * i + 1] = length(v);
    c[4 * i + 2] = normalize(v).x;
    c[4 * i + 3] = distance(v, w);
}
