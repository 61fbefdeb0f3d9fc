// RUN: -cl-std=CL1.2
// EXPECT: ok
// a kernel may call another kernel as an ordinary function
float4 shade(float4 c, float k) { return clamp(c * k, 0.0f, 1.0f); }
kernel void pass1(global float4 *img, float k) { img[get_global_id(0)] = shade(img[get_global_id(0)], k); }
kernel void pass2(global float4 *img) { pass1(img, 0.5f); }
