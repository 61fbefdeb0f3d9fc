// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out)
{
    uchar a = 200, b = 100;
    int sum = a + b;             /* 300: promoted to int */
    char c = -1;
    uint u = 1;
    long l = c + u;              /* uint arithmetic: 0 */
    short s = 32767;
    s = s + 1;
    out[0] = sum + (int)l + s;
}
