// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: local
kernel void k(global int *out)
{
    for (int i = 0; i < 4; i++) {
        local int tmp;
        tmp = i;
    }
}
