// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: address space
// local.txt: __private-qualified pointer return type
__local int * __private f(__local int *p) { return p; }; // should generate an error.
