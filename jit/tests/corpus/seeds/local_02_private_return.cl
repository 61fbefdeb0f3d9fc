// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: address space
// local.txt: address space on a return type
__private int f() { return 0; } // should generate an error
