// RUN: -cl-std=CL1.2
// EXPECT: ok
// a macro is not expanded again inside its own expansion
kernel void k(global int *out)
{
    int foo = 1, bar = 2;
#define foo foo
#define bar (bar + 1)
    out[0] = foo + bar;
}
