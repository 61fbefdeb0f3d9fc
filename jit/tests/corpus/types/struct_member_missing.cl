// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: y
typedef struct { float x; } s_t;
kernel void k(global float *out)
{
    s_t s = { 1.0f };
    out[0] = s.y;
}
