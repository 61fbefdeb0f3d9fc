// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: b
typedef struct { float a; } s_t;
kernel void k(global s_t *s)
{
    s->b = 1.0f;
}
