// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 4: double
kernel void k(global double *out)
{
}
