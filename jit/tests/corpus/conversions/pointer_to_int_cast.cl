// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *p, global ulong *out)
{
    out[0] = (ulong)p;
    out[1] = (uintptr_t)(p + 1) - (uintptr_t)p;
}
