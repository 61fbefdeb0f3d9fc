// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: expected
kernel void k(void)
{
    int 3x = 0;
}
