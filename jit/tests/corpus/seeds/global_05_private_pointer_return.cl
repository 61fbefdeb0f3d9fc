// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 5: address space
// global.txt: private-qualified pointer return type
local int * private f(local int *p) { return p; }; // should generate an error.
