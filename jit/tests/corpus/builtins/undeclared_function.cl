// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: not_a_builtin
kernel void k(global float *out)
{
    out[0] = not_a_builtin(1.0f);
}
