// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: a static variable inside a function in the global space
kernel void k(global int *out)
{
    static global int counter = 0;
    out[0] = counter++;
}
