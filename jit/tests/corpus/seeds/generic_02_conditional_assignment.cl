// RUN: -cl-std=CL2.0
// EXPECT: ok
// generic.txt: a generic pointer assigned from global or local (is_even is a helper)
int is_even(size_t x) { return (x & 1) == 0; }
kernel void bar(global int *g, local int *l)
{
    int *var;
    if (is_even(get_global_id(0)))
        var = g;
    else
        var = l;
    *var = 42;
}
