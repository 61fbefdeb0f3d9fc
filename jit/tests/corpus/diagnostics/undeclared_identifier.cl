// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: undeclared
kernel void k(global int *out)
{
    out[0] = counter;
}
