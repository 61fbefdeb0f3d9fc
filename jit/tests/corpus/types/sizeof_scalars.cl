// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out)
{
    int ok = sizeof(char) == 1 && sizeof(short) == 2 && sizeof(int) == 4 && sizeof(long) == 8
          && sizeof(float) == 4 && sizeof(half) == 2 && sizeof(size_t) == 8 && sizeof(uchar) == 1;
    out[0] = ok;
}
