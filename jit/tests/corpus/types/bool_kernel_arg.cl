// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: bool
// bool is not a valid kernel argument type
kernel void k(bool flag)
{
}
