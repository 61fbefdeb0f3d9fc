// RUN: -cl-std=CL1.2
// EXPECT: ok
// float vectors of every width, built from smaller vectors and scalars
kernel void k(global float16 *out, float s)
{
    float2 a = (float2)(s, s);
    float3 b = (float3)(a, s);
    float4 c = (float4)(b, s);
    float8 d = (float8)(c, c);
    float16 e = (float16)(d, d.s7654, a, a);
    e = e + (float16)(s) * e - e / (float16)(1);
    out[get_global_id(0)] = e + (float16)(a.x + b.y + c.z + d.s7);
}
