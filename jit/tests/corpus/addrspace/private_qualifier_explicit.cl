// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out)
{
    private int x = 4;
    __private float y[2] = { 1.0f, 2.0f };
    private int *p = &x;
    out[0] = *p + (int)y[1];
}
