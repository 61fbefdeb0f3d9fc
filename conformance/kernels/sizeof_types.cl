// @buf out int 12 zero
// @run k g=1 : out
// @check out sizes
kernel void k(global int *out) {
    out[0] = sizeof(char); out[1] = sizeof(short); out[2] = sizeof(int); out[3] = sizeof(long);
    out[4] = sizeof(float); out[5] = sizeof(float2); out[6] = sizeof(float3); out[7] = sizeof(float4);
    out[8] = sizeof(int8); out[9] = sizeof(uchar16); out[10] = sizeof(size_t); out[11] = sizeof(global int *);
}
