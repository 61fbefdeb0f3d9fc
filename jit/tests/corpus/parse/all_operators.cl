// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out, int a, int b)
{
    int r = a + b - a * b / (b | 1) % 7;
    r += (a << 2) >> 1;
    r ^= a & b | ~a;
    r -= !a + (a && b) + (a || b);
    r = (a < b) + (a > b) + (a <= b) + (a >= b) + (a == b) + (a != b);
    r = a ? b : r;
    r++, --r, r--;
    r <<= 1; r >>= 1; r &= 0xff; r |= 1; r %= 13; r /= 2; r *= 3;
    int *p = &r;
    out[0] = *p + sizeof r + sizeof(int) + (int)(char)r + -r + +r;
}
