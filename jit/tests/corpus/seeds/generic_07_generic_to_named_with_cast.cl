// RUN: -cl-std=CL2.0
// EXPECT: ok
// generic.txt: pointer casts from generic back to a named space are allowed
kernel void k(global int *gp_arg)
{
    int *p = gp_arg;
    global int *gp = (global int *)p;
    gp[0] = 7;
}
