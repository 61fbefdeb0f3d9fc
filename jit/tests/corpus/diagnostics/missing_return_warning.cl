// RUN: -cl-std=CL1.2
// EXPECT: ok
// WARNING: 8: return
// control reaches the end of a non-void function: a warning
int f(int x)
{
    if (x) return 1;
}
kernel void k(global int *out) { out[0] = f(1); }
