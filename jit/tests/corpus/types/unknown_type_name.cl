// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: vec3
kernel void k(global float *out)
{
    vec3 v;
}
