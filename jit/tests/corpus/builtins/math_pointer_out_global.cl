// RUN: -cl-std=CL1.2
// EXPECT: ok
// in 1.2 the pointer argument of fract may point to global, local or private
kernel void k(global float *out, global float *ipart)
{
    out[0] = fract(1.25f, ipart);
}
