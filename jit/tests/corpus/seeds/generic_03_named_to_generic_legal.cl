// RUN: -cl-std=CL2.0
// EXPECT: ok
// generic.txt: addresses of global, local and private objects convert to generic
global int g;
kernel void k(void)
{
    int *ptr;
    ptr = &g; // legal
    local int l;
    ptr = &l; // legal
    private int p;
    ptr = &p; // legal
    *ptr = 0;
}
