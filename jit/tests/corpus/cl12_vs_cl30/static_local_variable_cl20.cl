// RUN: -cl-std=CL2.0
// EXPECT: ok
// static variables in functions live in the global space (CL2.0: allowed)
kernel void k(global int *out)
{
    static int calls = 0;
    out[0] = calls;
}
