// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int8 *out)
{
    int8 v = (int8)(0, 1, 2, 3, 4, 5, 6, 7);
    v++;
    --v;
    v += 2;
    v *= (int8)(3);
    v %= 5;
    v >>= (int8)(1);
    v.s7++;
    out[0] = v;
}
