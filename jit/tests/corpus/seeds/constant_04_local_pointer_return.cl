// RUN: -cl-std=CL3.0
// EXPECT: ok
// constant.txt: a return type that points to local is allowed
local int *f(local int *p) { return p; } // allowed
kernel void k(local int *l) { f(l)[0] = 1; }
