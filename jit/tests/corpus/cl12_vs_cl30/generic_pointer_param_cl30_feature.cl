// RUN: -cl-std=CL3.0
// REQUIRES: __opencl_c_generic_address_space
// EXPECT: ok
// the generic address space under 3.0 once the device advertises the feature
void inc(int *p) { *p += 1; }
kernel void k(global int *g, local int *l)
{
    int x = 0;
    inc(g);
    inc(l);
    inc(&x);
    global int *back = to_global((int *)g);
    if (back) back[0] = x;
}
