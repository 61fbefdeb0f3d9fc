// RUN: -cl-std=CL1.2
// EXPECT: ok
// local.txt: return type pointing to __local
__local int *f(__local int *p) { return p; } // allowed
kernel void k(__local int *l) { f(l)[0] = 5; }
