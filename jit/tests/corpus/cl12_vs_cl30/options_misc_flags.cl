// RUN: -cl-std=CL3.0 -cl-opt-disable -cl-single-precision-constant -cl-kernel-arg-info -cl-uniform-work-group-size -g
// EXPECT: ok
// the other build options are accepted
kernel void k(global float *out) { out[0] = 1.0; }
