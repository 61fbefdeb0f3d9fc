// RUN: -cl-std=CL1.2
// EXPECT: ok
struct point { float x, y; };
union number { int i; float f; };
enum mode { ADD, SUB };
float apply(enum mode m, struct point p) { return m == ADD ? p.x + p.y : p.x - p.y; }
kernel void k(global float *out)
{
    struct point p = { 1.0f, 2.0f };
    union number n;
    n.i = 0x3f800000;
    out[0] = apply(SUB, p) + n.f;
}
