// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: function
kernel void k(global int *out)
{
    int f = 3;
    out[0] = f(2);
}
