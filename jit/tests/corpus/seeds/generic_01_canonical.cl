// RUN: -cl-std=CL2.0
// EXPECT: ok
// generic.txt: the canonical example, one function for local and global pointers
void foo(int *a)
{
    *a = *a + 2;
}
kernel void k1(local int *a)
{
    foo(a);
}
kernel void k2(global int *a)
{
    foo(a);
}
