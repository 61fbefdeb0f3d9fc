// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef unsigned int u32;
typedef struct node { int value; struct node *next; } node_t;
typedef union { float f; uint u; } bits_t;
enum color { RED, GREEN = 5, BLUE };
typedef enum { SMALL = 1 << 0, LARGE = 1 << 1 } size_flags;
constant int table[] = { [2] = 7, [0] = 1 };
int helper(int, float);
int helper(int a, float b) { return a + (int)b; }
kernel void k(global int *out)
{
    u32 x = 3u, y[2] = { 1, 2 }, *p = &x;
    bits_t b = { .f = 1.0f };
    enum color c = BLUE;
    out[0] = helper((int)x + y[1] + *p + table[2] + (int)b.u + c, 1.0f) + LARGE;
}
