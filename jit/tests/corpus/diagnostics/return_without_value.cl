// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: return
int f(void)
{
    return;
}
kernel void k(void) { }
