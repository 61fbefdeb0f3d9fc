// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: pointer to a pointer
// a kernel argument cannot be a pointer to a pointer
kernel void k(global int *global *pp)
{
}
