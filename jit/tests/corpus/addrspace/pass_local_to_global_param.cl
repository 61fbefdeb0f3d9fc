// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 7: address space
void f(global int *p) { *p = 1; }
kernel void k(local int *l)
{
    f(l);
}
