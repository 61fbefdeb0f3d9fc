// RUN: -cl-std=CL1.2
// EXPECT: ok
// constant.txt: string literal storage is in the constant address space
kernel void k(global char *out)
{
    constant char *s = "hello";
    out[0] = s[1];
}
