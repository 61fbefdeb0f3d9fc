// RUN: -cl-std=CL1.2
// EXPECT: ok
// sizeof in integer constant expressions (a 3-vector is the size of a 4-vector)
typedef char check_int[sizeof(int) == 4 ? 1 : -1];
typedef char check_float4[sizeof(float4) == 16 ? 1 : -1];
typedef char check_float3[sizeof(float3) == 16 ? 1 : -1];
typedef char check_ulong16[sizeof(ulong16) == 128 ? 1 : -1];
kernel void k(void) { }
