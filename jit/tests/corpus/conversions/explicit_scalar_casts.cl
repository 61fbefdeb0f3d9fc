// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out, float x)
{
    out[0] = (int)x + (uint)x + (char)x + (int)(uchar)(int)x + (long)(short)x;
}
