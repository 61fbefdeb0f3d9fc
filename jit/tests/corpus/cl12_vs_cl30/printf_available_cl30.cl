// RUN: -cl-std=CL3.0
// EXPECT: ok
// printf is new in OpenCL C 1.2 (CL3.0: allowed)
kernel void k(void)
{
    printf("%d\n", 1);
}
