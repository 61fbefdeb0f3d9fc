// RUN: -cl-std=CL1.2
// EXPECT: ok
// OpenCL C takes a shift count modulo the width of the type: well defined, no diagnostic
kernel void k(global int *out)
{
    out[0] = 1 << 40;
}
