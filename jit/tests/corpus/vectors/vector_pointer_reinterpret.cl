// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *data, global float4 *out)
{
    global float4 *v = (global float4 *)data;
    out[0] = v[get_global_id(0)];
}
