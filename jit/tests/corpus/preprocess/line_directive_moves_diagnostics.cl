// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 52: undeclared
// after #line 50 the kernel starts at line 50, so the error reports line 52
#line 50
kernel void k(global int *out)
{
    out[0] = undeclared_name;
}
