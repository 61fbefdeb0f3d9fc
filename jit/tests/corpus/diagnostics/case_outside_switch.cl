// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: case
kernel void k(void)
{
    case 1: ;
}
