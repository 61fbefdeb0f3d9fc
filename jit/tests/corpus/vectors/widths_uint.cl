// RUN: -cl-std=CL1.2
// EXPECT: ok
// uint vectors of every width, built from smaller vectors and scalars
kernel void k(global uint16 *out, uint s)
{
    uint2 a = (uint2)(s, s);
    uint3 b = (uint3)(a, s);
    uint4 c = (uint4)(b, s);
    uint8 d = (uint8)(c, c);
    uint16 e = (uint16)(d, d.s7654, a, a);
    e = e + (uint16)(s) * e - e / (uint16)(1);
    out[get_global_id(0)] = e + (uint16)(a.x + b.y + c.z + d.s7);
}
