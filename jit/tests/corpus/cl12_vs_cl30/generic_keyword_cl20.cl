// RUN: -cl-std=CL2.0
// EXPECT: ok
// the __generic keyword (CL2.0: allowed)
kernel void k(global int *g)
{
    __generic int *p = g;
    *p = 1;
}
