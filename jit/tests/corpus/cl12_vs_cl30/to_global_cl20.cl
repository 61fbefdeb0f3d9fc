// RUN: -cl-std=CL2.0
// EXPECT: ok
// to_global (CL2.0: allowed)
kernel void k(global int *g)
{
    int *p = g;
    global int *q = to_global(p);
}
