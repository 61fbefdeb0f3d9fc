// RUN: -cl-std=CL1.2
// EXPECT: ok
// WARNING: 7: incompatible
// assigning pointers to different object types in the same space: a warning in C
kernel void k(global int *out, global float *f)
{
    global int *p = f;
    out[0] = *p;
}
