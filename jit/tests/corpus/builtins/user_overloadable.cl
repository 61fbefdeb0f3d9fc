// RUN: -cl-std=CL1.2
// EXPECT: ok
__attribute__((overloadable)) float twice(float x) { return 2.0f * x; }
__attribute__((overloadable)) int twice(int x) { return 2 * x; }
kernel void k(global float *f, global int *i)
{
    f[0] = twice(1.5f);
    i[0] = twice(3);
}
