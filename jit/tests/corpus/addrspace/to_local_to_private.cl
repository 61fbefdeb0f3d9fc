// RUN: -cl-std=CL2.0
// EXPECT: ok
kernel void k(local int *l, global int *out)
{
    int x = 0;
    int *p = l;
    local int *lp = to_local(p);
    private int *pp = to_private(&x);
    out[0] = (lp != 0) + (pp != 0);
}
