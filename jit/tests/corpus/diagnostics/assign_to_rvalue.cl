// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: assignable
kernel void k(global int *out, int a, int b)
{
    a + b = 3;
}
