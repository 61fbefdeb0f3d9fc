// RUN: -cl-std=CL1.2 -Werror
// EXPECT: error
// ERROR: 7: incompatible
// -Werror turns a warning into an error
kernel void k(global int *out, global float *f)
{
    global int *p = f;
    out[0] = *p;
}
