// RUN: -cl-std=CL3.0
// EXPECT: ok
constant char *constant msg = "program scope";
kernel void k(global char *out)
{
    constant char *s = "kernel";
    out[0] = s[0] + msg[0];
}
