// RUN: -cl-std=CL3.0
// REQUIRES: __opencl_c_program_scope_global_variables
// EXPECT: ok
// a static variable in a function lives in the global space: allowed under 3.0 once the device advertises __opencl_c_program_scope_global_variables
kernel void k(global int *out)
{
    static int calls = 0;
    out[0] = calls;
}
