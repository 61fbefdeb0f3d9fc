// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global long *out)
{
    bool b = true;
    char c = -1; uchar uc = 255; unsigned char uc2 = 1;
    short s = -2; ushort us = 2; unsigned short us2 = 3;
    int i = -3; uint ui = 3u; unsigned int ui2 = 4; unsigned u3 = 5;
    long l = -4; ulong ul = 4ul; unsigned long ul2 = 6;
    float f = 1.5f;
    out[0] = b + c + uc + uc2 + s + us + us2 + i + ui + ui2 + u3 + l + ul + ul2 + (long)f;
}
