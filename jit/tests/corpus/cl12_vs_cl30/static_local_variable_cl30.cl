// RUN: -cl-std=CL3.0
// REQUIRES: !__opencl_c_program_scope_global_variables
// EXPECT: error
// ERROR: 8: static
// static variables in functions live in the global space (CL3.0: an error)
kernel void k(global int *out)
{
    static int calls = 0;
    out[0] = calls;
}
