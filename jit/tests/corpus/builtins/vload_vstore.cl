// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *buf, local float *lbuf, constant float *c)
{
    float2 a = vload2(0, buf);
    float4 b = vload4(1, c);
    float8 d = vload8(0, lbuf);
    float16 e = vload16(0, buf);
    vstore2(a, 0, buf);
    vstore4(b, 1, lbuf);
    vstore8(d + e.lo, 0, buf);
    float p[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
    vstore4(vload4(0, p), 2, buf);
}
