// RUN: -cl-std=CL1.2
// EXPECT: ok
enum { A = 1 << 3, B = A * 2 + 1, C = sizeof(float4) / sizeof(float), D = B > 10 ? 100 : 0 };
constant int arr[D] = { 1 };
kernel void k(global int *out) { out[0] = A + B + C; }
