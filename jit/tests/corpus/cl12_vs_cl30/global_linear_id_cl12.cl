// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: get_global_linear_id
// get_global_linear_id is new in OpenCL C 2.0 (CL1.2: an error)
kernel void k(global uint *out)
{
    out[0] = get_global_linear_id();
}
