// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: const
// objects in constant memory are read-only
kernel void k(constant int *c)
{
    c[0] = 1;
}
