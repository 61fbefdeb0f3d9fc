// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 10: missing1
// ERROR: 11: address space
// ERROR: 12: pointer
// ERROR: 13: missing2
// four independent errors, each reported with its own line
kernel void k(global int *out, local int *l)
{
    out[0] = missing1;
    global int *g = l;
    float f = (float)out;
    out[1] = missing2;
}
