// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: pointer
typedef struct { int x; } s_t;
kernel void k(global int *out)
{
    s_t s = { 1 };
    out[0] = s->x;
}
