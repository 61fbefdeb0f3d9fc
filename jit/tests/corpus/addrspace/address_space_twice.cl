// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: address space
// two address spaces on one type
kernel void k(global local int *p)
{
}
