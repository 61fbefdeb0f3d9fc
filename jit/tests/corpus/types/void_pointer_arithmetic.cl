// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global void *p, global int *out)
{
    global int *ip = (global int *)p;
    out[0] = *ip;
}
