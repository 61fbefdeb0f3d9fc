// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: expected
// constant.txt: address-space names are reserved and shall not be used otherwise
kernel void k(global int *out)
{
    int constant = 3;
    out[0] = 1;
}
