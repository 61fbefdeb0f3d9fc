// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 6: address space
// global.txt: a constant pointer cannot point to a global variable
global int baz = 12;
constant int *global ptr=&baz; // error since baz is in global address
