// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct __attribute__((packed)) { char c; int i; } packed_t;
typedef struct { float4 v; } __attribute__((aligned(32))) aligned_t;
typedef float float_aligned __attribute__((aligned(16)));
kernel void k(global packed_t *p, global aligned_t *a)
{
    int x __attribute__((aligned(8))) = 3;
    p[0].i = x + (int)a[0].v.x + sizeof(packed_t);
}
