// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: address space
int f(constant int *p) { return *p; }
kernel void k(global int *g, global int *out)
{
    out[0] = f(g);
}
