// @buf c float 1024 zero
// @run k g=64 : c int(5)
// @check c v_literals
kernel void k(global float *c, int k) {
    int i = get_global_id(0);
    float4 a = (float4)(1.0f, 2.0f, (float)i, (float)k);
    float4 b = (float4)((float2)(3.0f, 4.0f), (float)(i * 2), 5.0f);
    int8 e = (int8)(k);
    float8 f = (float8)(a, b) + convert_float8(e);
    vstore8(f, i, c);
    vstore8(f * 2.0f, i + 64, c);
}
