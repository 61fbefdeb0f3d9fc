// RUN: -cl-std=CL1.2
// EXPECT: ok
// local.txt: private pointer to global, private array
kernel void k(__global int *buf)
{
    __global int *p = buf;
    float x[4];
    x[1] = 2.0f;
    p[1] = (int)x[1];
}
