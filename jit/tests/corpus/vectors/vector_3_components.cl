// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *out, global const float *in)
{
    float3 p = vload3(get_global_id(0), in);
    float3 q = p.zxy * (float3)(2.0f);
    vstore3(q + p.s012, get_global_id(0), out);
    out[0] += p.x + p.y + p.z;
}
