// RUN: -cl-std=CL3.0
// REQUIRES: !__opencl_c_generic_address_space
// EXPECT: error
// ERROR: 9: address space
// the generic address space: 2.0 core, 3.0 only with __opencl_c_generic_address_space (CL3.0: an error)
void inc(int *p) { *p += 1; }
kernel void k(global int *g)
{
    inc(g);
}
