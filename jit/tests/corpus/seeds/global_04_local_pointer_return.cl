// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: return type pointing to local
local int *f(local int *p) { return p + 1; } // allowed
kernel void k(local int *l) { *f(l) = 0; }
