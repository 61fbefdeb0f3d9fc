// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 6: expected
kernel void k(void)
{
    int global = 1;
}
