// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: helper
// OpenCL C has no implicit function declarations
kernel void k(global int *out)
{
    out[0] = helper(2);
}
int helper(int x) { return x; }
