// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: assignable
kernel void k(void)
{
    int a[2], b[2];
    a = b;
}
