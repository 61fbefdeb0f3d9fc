// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: void
void f(void)
{
    return 1;
}
kernel void k(void) { f(); }
