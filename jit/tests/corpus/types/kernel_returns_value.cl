// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: void
// a kernel function returns void
kernel int k(global int *out)
{
    return 0;
}
