// @buf out float 16 zero
// @run k g=2 : char(-3) out float(1,2,3,4) ulong(0x100000000) int(2,5) float(0.5) uchar(200) float(10,20,30,0) short(-7)
// @check out mixed_args
// Arguments of every size and alignment, packed into one argument block.
kernel void k(char c, global float *out, float4 v, ulong big, int2 p, float f, uchar u, float3 w, short s) {
    int i = get_global_id(0);
    out[8 * i + 0] = c;
    out[8 * i + 1] = v.x + v.y * v.z + v.w;
    out[8 * i + 2] = (float)(big >> 32);
    out[8 * i + 3] = p.x * p.y;
    out[8 * i + 4] = f * i;
    out[8 * i + 5] = u;
    out[8 * i + 6] = w.x + w.y + w.z;
    out[8 * i + 7] = s;
}
