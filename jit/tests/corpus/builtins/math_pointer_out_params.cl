// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *out, global int *iout)
{
    float ip;
    int e;
    float fr = fract(1.25f, &ip);
    float m = frexp(8.0f, &e);
    float s, c;
    s = sincos(0.5f, &c);
    float mi;
    float mf = modf(2.5f, &mi);
    int q;
    float r = remquo(7.0f, 2.0f, &q);
    out[0] = fr + ip + m + s + c + mf + mi + r + ldexp(1.0f, 3) + ilogb(8.0f) + nan(0u);
    iout[0] = e + q;
}
