// RUN: -cl-std=CL1.2
// EXPECT: ok
// char vectors of every width, built from smaller vectors and scalars
kernel void k(global char16 *out, char s)
{
    char2 a = (char2)(s, s);
    char3 b = (char3)(a, s);
    char4 c = (char4)(b, s);
    char8 d = (char8)(c, c);
    char16 e = (char16)(d, d.s7654, a, a);
    e = e + (char16)(s) * e - e / (char16)(1);
    out[get_global_id(0)] = e + (char16)(a.x + b.y + c.z + d.s7);
}
