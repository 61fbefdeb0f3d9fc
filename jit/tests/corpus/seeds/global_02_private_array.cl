// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: private array inside a function
void foo(void)
{
    // declares an array of 4 floats in the private address space
    float x[4];
    x[3] = 0.0f;
}
kernel void k(void) { foo(); }
