// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: nowhere
kernel void k(void)
{
    goto nowhere;
}
