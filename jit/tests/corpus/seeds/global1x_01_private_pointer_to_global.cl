// RUN: -cl-std=CL1.2
// EXPECT: ok
// global-1.x.txt: private pointer to global; private array
kernel void k(__global int *buf)
{
    // declares a pointer p in the __private address space that
    // points to an int object in address space __global
    __global int *p = buf;
    // declares an array of 4 floats in the __private address space.
    float x[4];
    x[0] = 1.0f;
    p[0] = (int)x[0];
}
