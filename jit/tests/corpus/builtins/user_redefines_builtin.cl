// RUN: -cl-std=CL1.2
// EXPECT: ok
float mix_colors(float a, float b) { return mix(a, b, 0.5f); }
kernel void k(global float *out) { out[0] = mix_colors(1.0f, 2.0f); }
