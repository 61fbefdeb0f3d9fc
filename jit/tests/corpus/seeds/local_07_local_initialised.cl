// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: initializ
// local.txt: __local variables cannot be initialised
__kernel void my_func(__global float *out)
{
    local float a = 1; // not allowed
    out[0] = a;
}
