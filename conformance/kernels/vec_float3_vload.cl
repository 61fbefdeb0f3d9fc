// @buf a float 300 rand
// @buf b float 300 rand
// @buf c float 300 zero
// @run k g=100 : a b c
// @check c v_float3
kernel void k(global const float *a, global const float *b, global float *c) {
    int i = get_global_id(0);
    float3 v = vload3(i, a) + vload3(i, b) * 2.0f;
    vstore3(v, i, c);
}
