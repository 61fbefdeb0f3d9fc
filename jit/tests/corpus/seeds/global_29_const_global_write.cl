// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 7: not assignable
// global.txt: writing through a const global pointer
kernel void k(const global float *in)
{
    in[0] = 1.0f;
}
