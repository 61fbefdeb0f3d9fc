// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 9: expected expression
// ERROR: 11: expected expression
// ERROR: 14: expected ';'
// the parser recovers at the next statement and declaration: three errors in one build
kernel void k(global int *out)
{
    int a = ;
    int b = 2;
    out[0] = b +;
    out[1] = b;
}
void g(void) { return 1 }
