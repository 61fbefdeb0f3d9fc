// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 9: address space
// generic.txt: a pointer to constant cannot convert to generic
constant int c = 1;
kernel void k(void)
{
    int *ptr;
    ptr = &c; // illegal
}
