// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: void
void f(void) { }
kernel void k(global int *out)
{
    out[0] = f();
}
