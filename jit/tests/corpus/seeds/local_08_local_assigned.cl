// RUN: -cl-std=CL1.2
// EXPECT: ok
// local.txt: assigning a __local variable is allowed
__kernel void my_func(__global float *out)
{
    __local float b;
    b = 1; // allowed
    out[0] = b;
}
