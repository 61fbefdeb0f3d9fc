// RUN: -cl-std=CL1.2
// REQUIRES: cl_khr_fp64
// EXPECT: error
// ERROR: 9: ambiguous
// with double overloads, sqrt(int) could convert to float or double: ambiguous
kernel void k(global float *out)
{
    out[0] = sqrt(4.0f);
    out[1] = sqrt(4);
}
