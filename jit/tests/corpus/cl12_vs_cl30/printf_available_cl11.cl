// RUN: -cl-std=CL1.1
// EXPECT: error
// ERROR: 7: printf
// printf is new in OpenCL C 1.2 (CL1.1: an error)
kernel void k(void)
{
    printf("%d\n", 1);
}
