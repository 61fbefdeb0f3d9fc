// RUN: -cl-std=CL1.2
// EXPECT: ok
#pragma OPENCL EXTENSION all : disable
#pragma OPENCL FP_CONTRACT ON
kernel void k(global float *out)
{
#pragma unroll
    for (int i = 0; i < 4; i++) out[i] = (float)i;
#pragma unroll 2
    for (int i = 4; i < 8; i++) out[i] = (float)i;
}
