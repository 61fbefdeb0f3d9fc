// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: not allowed
// function pointers are not allowed in OpenCL C
int add(int a, int b) { return a + b; }
kernel void k(global int *out)
{
    int (*fp)(int, int) = add;
    out[0] = fp(1, 2);
}
