// RUN: -cl-std=CL1.2
// EXPECT: ok
// a cast from a scalar to a vector replicates it
kernel void k(global float4 *out, global int8 *iout, float x, int y)
{
    out[0] = (float4)x;
    out[1] = (float4)(y);
    iout[0] = (int8)y;
}
