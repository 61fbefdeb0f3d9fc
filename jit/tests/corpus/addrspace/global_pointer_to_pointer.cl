// RUN: -cl-std=CL1.2
// EXPECT: ok
// in 1.2 the unqualified middle pointer is private, which is where p lives
kernel void k(global int *g)
{
    global int *p = g;
    global int **pp = &p;
    **pp = 1;
}
