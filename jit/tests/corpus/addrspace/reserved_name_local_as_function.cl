// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: expected
int local(int x) { return x; }
