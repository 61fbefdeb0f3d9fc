// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: address space
// constant.txt: a string literal cannot initialise a pointer to private
kernel void k(global char *out)
{
    char *s = "hello";
    out[0] = s[1];
}
