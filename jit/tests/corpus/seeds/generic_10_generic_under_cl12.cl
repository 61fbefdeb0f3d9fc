// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: address space
// generic.txt: OpenCL C 1.2 has no generic space: an unqualified pointer parameter is private
void foo(int *a) { *a = *a + 2; }
kernel void k2(global int *a)
{
    foo(a);
}
