// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *a, global int *b, local int *la, local int *lb)
{
    global int *g = a;
    g = b;
    local int *l = la;
    l = lb;
    *g = *l;
}
