// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: local
// local.txt: __local variables only inside a __kernel function
void helper(void)
{
    __local float x;
}
kernel void k(void) { helper(); }
