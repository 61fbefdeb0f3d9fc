// RUN: -cl-std=CL1.2
// EXPECT: ok
// ulong vectors of every width, built from smaller vectors and scalars
kernel void k(global ulong16 *out, ulong s)
{
    ulong2 a = (ulong2)(s, s);
    ulong3 b = (ulong3)(a, s);
    ulong4 c = (ulong4)(b, s);
    ulong8 d = (ulong8)(c, c);
    ulong16 e = (ulong16)(d, d.s7654, a, a);
    e = e + (ulong16)(s) * e - e / (ulong16)(1);
    out[get_global_id(0)] = e + (ulong16)(a.x + b.y + c.z + d.s7);
}
