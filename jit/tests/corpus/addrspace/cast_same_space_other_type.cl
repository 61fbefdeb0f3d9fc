// RUN: -cl-std=CL1.2
// EXPECT: ok
// casts that keep the address space but change the pointee are fine
kernel void k(global int *g, global float *out)
{
    global float *f = (global float *)g;
    out[0] = f[0];
    global uchar *bytes = (global uchar *)g;
    bytes[3] = 0;
}
