// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: atomic_add
kernel void k(global float *f)
{
    atomic_add(f, 1.0f);
}
