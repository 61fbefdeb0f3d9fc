// RUN: -cl-std=CL1.2
// EXPECT: ok
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define IDX(x, y, w) ((y) * (w) + (x))
#define NOARGS() 7
kernel void k(global int *out, int w)
{
    out[IDX(get_global_id(0), get_global_id(1), w)] = MAX(3, NOARGS());
}
