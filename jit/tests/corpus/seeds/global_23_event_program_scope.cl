// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 5: event_t
// global.txt: event_t is not a program-scope variable type
global event_t ev; // Error. Invalid type for program scope variables
