// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: const
kernel void k(void)
{
    constant char *s = "abc";
    s[0] = 'x';
}
