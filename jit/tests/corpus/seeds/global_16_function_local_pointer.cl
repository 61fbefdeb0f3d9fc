// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: function-scope pointer to generic
void func(global int *g)
{
    int *foo; // OK. foo is allocated in private address space.
    // foo points to a location in generic address space.
    foo = g;
    *foo = 2;
}
kernel void k(global int *g) { func(g); }
