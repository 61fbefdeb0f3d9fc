// RUN: -cl-std=CL3.0
// REQUIRES: __opencl_c_program_scope_global_variables
// EXPECT: ok
// program-scope and static globals under 3.0 once the device advertises the feature
global float state = 1.0f;
global int *global cursor = 0;
kernel void k(global float *out)
{
    static global int calls = 0;
    calls++;
    out[0] = state;
}
