// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: vector
// a float scalar cannot be widened into an int vector (it would need a narrowing conversion)
kernel void k(global int4 *out)
{
    int4 v = (int4)(1);
    out[0] = v + 1.5f;
}
