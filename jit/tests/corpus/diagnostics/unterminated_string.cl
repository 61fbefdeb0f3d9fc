// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: terminat
kernel void k(global char *out)
{
    constant char *s = "abc;
}
