// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 5: program scope
// global.txt: program-scope variables are global or constant only
local int bad;
kernel void k(void) { }
