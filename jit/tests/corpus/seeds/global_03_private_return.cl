// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 5: address space
// global.txt: address space on a return type
private int f() { return 1; } // should generate an error
