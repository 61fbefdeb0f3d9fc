// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 7: global
// global.txt: a non-static variable inside a function cannot be global
kernel void k(void)
{
    global int x;
}
