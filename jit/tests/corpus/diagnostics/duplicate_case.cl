// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: duplicate case
kernel void k(global int *out, int x)
{
    switch (x) {
    case 1: out[0] = 1; break;
    case 1: out[0] = 2; break;
    }
}
