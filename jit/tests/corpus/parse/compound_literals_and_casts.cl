// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct { int a, b; } pair_t;
int first(pair_t p) { return p.a; }
kernel void k(global int *out)
{
    out[0] = first((pair_t){ 3, 4 }) + ((int[]){ 5, 6 })[1];
}
