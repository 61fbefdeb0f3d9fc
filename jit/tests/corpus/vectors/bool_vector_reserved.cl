// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: bool4
// bool vectors are reserved
kernel void k(void)
{
    bool4 b;
}
