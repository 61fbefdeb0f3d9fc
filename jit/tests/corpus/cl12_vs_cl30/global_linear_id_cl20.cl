// RUN: -cl-std=CL2.0
// EXPECT: ok
// get_global_linear_id is new in OpenCL C 2.0 (CL2.0: allowed)
kernel void k(global uint *out)
{
    out[0] = get_global_linear_id();
}
