// RUN: -cl-std=CL2.0
// EXPECT: ok
// generic.txt: to_global converts a generic pointer back to global
kernel void k(global int *g)
{
    int *p = g;
    global int *q = to_global(p);
    if (q) q[0] = 1;
}
