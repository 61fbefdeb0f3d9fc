// RUN: -cl-std=CL1.2
// REQUIRES: !cl_khr_fp64
// EXPECT: ok
// without double or half overloads, sqrt(int) converts its argument to float
kernel void k(global float *out)
{
    out[0] = sqrt(4);
}
