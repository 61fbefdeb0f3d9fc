// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 7: address space
// generic.txt: a constant pointer cannot be cast to generic either
kernel void k(constant int *c)
{
    int *p = (int *)c;
}
