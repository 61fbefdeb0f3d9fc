// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: break
kernel void k(void)
{
    break;
}
