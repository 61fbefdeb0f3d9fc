// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 6: local
int helper(void)
{
    local int x;
    return 0;
}
kernel void k(void) { helper(); }
