// RUN: -cl-std=CL1.2
// EXPECT: ok
// Found by fuzzing: a private array of 2^31 - 1 ints with a one-element initializer made sema
// allocate every element's slot (sema/init.rs) and abort on the failed allocation.
kernel void k(global int *o)
{
    int a[0x7fffffff] = { 1 };
    o[0] = a[0];
}
