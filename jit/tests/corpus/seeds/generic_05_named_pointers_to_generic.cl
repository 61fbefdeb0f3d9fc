// RUN: -cl-std=CL2.0
// EXPECT: ok
// generic.txt: global, local and private pointers assigned to a generic pointer
kernel void k(global int *gp_arg, local int *lp_arg)
{
    global int *gp = gp_arg;
    local int *lp = lp_arg;
    int x = 0;
    private int *pp = &x;
    int *p;
    p = gp; // legal
    p = lp; // legal
    p = pp; // legal
    *p = 1;
}
