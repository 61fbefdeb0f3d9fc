// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: missing_variable
// an error inside a macro expansion points at the line where the macro is used
#define USE_UNDECLARED (missing_variable + 1)
kernel void k(global int *out)
{
    out[0] = USE_UNDECLARED;
}
