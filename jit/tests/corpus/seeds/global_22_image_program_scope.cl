// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 5: image2d_t
// global.txt: image types are not program-scope variables
global image2d_t im; // Error. Invalid type for program scope
// variables
