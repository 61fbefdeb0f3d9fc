// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: pasting
#define PASTE(a, b) a##b
kernel void k(global int *out)
{
    out[0] = PASTE(+, -)1;
}
