// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: const
// constant.txt: writing to a constant variable is a compile-time error
constant int c = 4;
kernel void k(global int *out)
{
    c = 5;
    out[0] = c;
}
