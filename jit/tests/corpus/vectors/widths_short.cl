// RUN: -cl-std=CL1.2
// EXPECT: ok
// short vectors of every width, built from smaller vectors and scalars
kernel void k(global short16 *out, short s)
{
    short2 a = (short2)(s, s);
    short3 b = (short3)(a, s);
    short4 c = (short4)(b, s);
    short8 d = (short8)(c, c);
    short16 e = (short16)(d, d.s7654, a, a);
    e = e + (short16)(s) * e - e / (short16)(1);
    out[get_global_id(0)] = e + (short16)(a.x + b.y + c.z + d.s7);
}
