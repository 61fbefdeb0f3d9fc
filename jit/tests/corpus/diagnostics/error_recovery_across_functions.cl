// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: expected expression
// ERROR: 6: undeclared
void f(void) { int x = ; }
void g(void) { undeclared(); }
kernel void k(global int *out) { out[0] = 1; }
