// RUN: -cl-std=CL1.2
// EXPECT: ok
// printf is new in OpenCL C 1.2 (CL1.2: allowed)
kernel void k(void)
{
    printf("%d\n", 1);
}
