// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: size_t
// size_t is not a valid kernel argument type
kernel void k(size_t n)
{
}
