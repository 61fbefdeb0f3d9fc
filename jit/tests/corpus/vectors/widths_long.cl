// RUN: -cl-std=CL1.2
// EXPECT: ok
// long vectors of every width, built from smaller vectors and scalars
kernel void k(global long16 *out, long s)
{
    long2 a = (long2)(s, s);
    long3 b = (long3)(a, s);
    long4 c = (long4)(b, s);
    long8 d = (long8)(c, c);
    long16 e = (long16)(d, d.s7654, a, a);
    e = e + (long16)(s) * e - e / (long16)(1);
    out[get_global_id(0)] = e + (long16)(a.x + b.y + c.z + d.s7);
}
