// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 7: static
// static variables in functions live in the global space (CL3.0: an error)
kernel void k(global int *out)
{
    static int calls = 0;
    out[0] = calls;
}
