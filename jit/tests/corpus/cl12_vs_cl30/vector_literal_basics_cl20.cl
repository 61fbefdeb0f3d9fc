// RUN: -cl-std=CL2.0
// EXPECT: ok
// a plain kernel under every OpenCL C version (CL2.0: allowed)
kernel void k(global float4 *out, global int *count)
{
    out[get_global_id(0)] = (float4)(1.0f, 2.0f, 3.0f, 4.0f) * 2.0f;
    count[0] = get_global_size(0);
}
