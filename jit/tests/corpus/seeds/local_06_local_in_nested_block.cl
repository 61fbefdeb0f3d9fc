// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 11: local
// local.txt: __local variables only at kernel function scope, not in nested blocks
__kernel void my_func(__global float *out)
{
    __local float a;
    if (get_local_id(0) == 0) {
        // example of variable in __local address space but not
        // declared at __kernel function scope.
        __local float c; // not allowed.
        c = 1.0f;
    }
}
