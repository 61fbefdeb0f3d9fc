// RUN: -cl-std=CL3.0
// EXPECT: ok
// constant.txt: a private array inside a function (the page writes foo(...); OpenCL forbids variadic prototypes)
void foo(void)
{
    // declares an array of 4 floats in the private address space
    float x[4];
    x[0] = 1.0f;
}
kernel void k(void) { foo(); }
