// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 7: to_global
// to_global takes a generic pointer; a constant pointer does not convert
kernel void k(constant int *c)
{
    global int *g = to_global(c);
}
