// RUN: -cl-std=CL1.1
// EXPECT: ok
// 3-component vectors are new in OpenCL C 1.1 (CL1.1: allowed)
kernel void k(global float *out)
{
    float3 v = (float3)(1.0f, 2.0f, 3.0f);
    vstore3(v, 0, out);
}
