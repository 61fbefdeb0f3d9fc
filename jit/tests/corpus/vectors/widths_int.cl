// RUN: -cl-std=CL1.2
// EXPECT: ok
// int vectors of every width, built from smaller vectors and scalars
kernel void k(global int16 *out, int s)
{
    int2 a = (int2)(s, s);
    int3 b = (int3)(a, s);
    int4 c = (int4)(b, s);
    int8 d = (int8)(c, c);
    int16 e = (int16)(d, d.s7654, a, a);
    e = e + (int16)(s) * e - e / (int16)(1);
    out[get_global_id(0)] = e + (int16)(a.x + b.y + c.z + d.s7);
}
