// RUN: -cl-std=CL2.0
// EXPECT: ok
// the generic address space: 2.0 core, 3.0 only with __opencl_c_generic_address_space (CL2.0: allowed)
void inc(int *p) { *p += 1; }
kernel void k(global int *g)
{
    inc(g);
}
