// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: __generic
// the __generic keyword (CL1.2: an error)
kernel void k(global int *g)
{
    __generic int *p = g;
    *p = 1;
}
