// RUN: -cl-std=CL1.2
// EXPECT: ok
// uchar vectors of every width, built from smaller vectors and scalars
kernel void k(global uchar16 *out, uchar s)
{
    uchar2 a = (uchar2)(s, s);
    uchar3 b = (uchar3)(a, s);
    uchar4 c = (uchar4)(b, s);
    uchar8 d = (uchar8)(c, c);
    uchar16 e = (uchar16)(d, d.s7654, a, a);
    e = e + (uchar16)(s) * e - e / (uchar16)(1);
    out[get_global_id(0)] = e + (uchar16)(a.x + b.y + c.z + d.s7);
}
