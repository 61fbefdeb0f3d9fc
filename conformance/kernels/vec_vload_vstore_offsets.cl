// @buf a float 1030 rand
// @buf c float 1030 zero
// @run k g=256 : a c
// @check c v_vload_off
kernel void k(global const float *a, global float *c) {
    int i = get_global_id(0);
    float4 v = vload4(i, a + 1);
    vstore4(v * 3.0f, i, c + 2);
}
