// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: long long
// CLANG: skip clang-14 accepts long long silently; the spec reserves it
// long long is a reserved data type (OpenCL C 6.1.4)
kernel void k(void)
{
    long long x = 0;
}
