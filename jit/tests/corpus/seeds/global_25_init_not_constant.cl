// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 6: constant
// global.txt: program-scope globals only with constant expressions
int n(void) { return 3; }
global int bad = n();
