// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *out, global ulong *u)
{
    int i = -1;
    uint ui = 1;
    long l = -1;
    ulong ul = 1;
    float f = 0.5f;
    out[0] = i + f;                   /* float */
    u[0] = (i < ui) + (l < ul) * 2;   /* unsigned comparisons */
    u[1] = i + ul;                    /* ulong */
}
