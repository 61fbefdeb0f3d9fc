// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: static
// static variables in functions live in the global space (CL1.2: an error)
kernel void k(global int *out)
{
    static int calls = 0;
    out[0] = calls;
}
