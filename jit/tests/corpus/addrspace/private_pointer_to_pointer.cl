// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *g)
{
    global int *p = g;
    global int *private *pp = &p;
    **pp = 7;
}
