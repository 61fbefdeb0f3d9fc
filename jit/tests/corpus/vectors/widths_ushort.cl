// RUN: -cl-std=CL1.2
// EXPECT: ok
// ushort vectors of every width, built from smaller vectors and scalars
kernel void k(global ushort16 *out, ushort s)
{
    ushort2 a = (ushort2)(s, s);
    ushort3 b = (ushort3)(a, s);
    ushort4 c = (ushort4)(b, s);
    ushort8 d = (ushort8)(c, c);
    ushort16 e = (ushort16)(d, d.s7654, a, a);
    e = e + (ushort16)(s) * e - e / (ushort16)(1);
    out[get_global_id(0)] = e + (ushort16)(a.x + b.y + c.z + d.s7);
}
